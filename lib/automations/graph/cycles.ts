import type { Graph } from "./schema";

/**
 * The cycles of a graph, as its strongly connected components that loop (Tarjan's algorithm,
 * iterative so a long chain cannot overflow the stack). Pure. Each cycle lists its node ids in
 * the graph's node order; edges to or from missing nodes are ignored.
 */
export function findCycles(graph: Pick<Graph, "nodes" | "edges">): string[][] {
  const order = new Map(graph.nodes.map((node, i) => [node.id, i]));
  const next = new Map<string, string[]>();
  const selfLoops = new Set<string>();
  for (const edge of graph.edges) {
    if (!order.has(edge.source) || !order.has(edge.target)) continue;
    if (edge.source === edge.target) selfLoops.add(edge.source);
    const list = next.get(edge.source);
    if (list) list.push(edge.target);
    else next.set(edge.source, [edge.target]);
  }

  const indexOf = new Map<string, number>();
  const lowOf = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;

  for (const root of graph.nodes) {
    if (indexOf.has(root.id)) continue;
    // Each frame is a node and the position of the next successor to visit.
    const frames: { id: string; child: number }[] = [{ id: root.id, child: 0 }];
    indexOf.set(root.id, counter);
    lowOf.set(root.id, counter++);
    stack.push(root.id);
    onStack.add(root.id);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1] as { id: string; child: number };
      const successors = next.get(frame.id) ?? [];
      if (frame.child < successors.length) {
        const successor = successors[frame.child++] as string;
        if (!indexOf.has(successor)) {
          indexOf.set(successor, counter);
          lowOf.set(successor, counter++);
          stack.push(successor);
          onStack.add(successor);
          frames.push({ id: successor, child: 0 });
        } else if (onStack.has(successor)) {
          lowOf.set(frame.id, Math.min(lowOf.get(frame.id) as number, indexOf.get(successor) as number));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent)
        lowOf.set(parent.id, Math.min(lowOf.get(parent.id) as number, lowOf.get(frame.id) as number));
      if (lowOf.get(frame.id) === indexOf.get(frame.id)) {
        const component: string[] = [];
        let id: string | undefined;
        do {
          id = stack.pop() as string;
          onStack.delete(id);
          component.push(id);
        } while (id !== frame.id);
        if (component.length > 1 || selfLoops.has(frame.id)) {
          cycles.push(component.sort((a, b) => (order.get(a) as number) - (order.get(b) as number)));
        }
      }
    }
  }
  return cycles.sort((a, b) => (order.get(a[0] as string) as number) - (order.get(b[0] as string) as number));
}
