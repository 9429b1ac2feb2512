import { describe, expect, test } from "vitest";
import type { StepEdge } from "./flow";
import { BROKEN_STROKE, highlightEdges, issueEdgeIds, issuesByNode, PATH_STROKE } from "./decorations";

const issues = [
  { nodeId: "mail", message: "Add a subject." },
  { nodeId: "mail", message: "Add a body." },
  { edgeId: "e2", message: "This connection leads nowhere." },
  { message: "Add a trigger." },
];

describe("issues on the canvas", () => {
  test("each step gets its own issues, in order", () => {
    expect(issuesByNode(issues)).toEqual(new Map([["mail", ["Add a subject.", "Add a body."]]]));
  });

  test("the connections an issue is about", () => {
    expect(issueEdgeIds(issues)).toEqual(new Set(["e2"]));
  });
});

describe("highlightEdges", () => {
  const edges: StepEdge[] = [
    { id: "e1", source: "t", target: "w" },
    { id: "e2", source: "w", target: "mail" },
    { id: "e3", source: "mail", target: "tag" },
  ];

  test("a dry run's path is green and animated, a broken connection red, the rest untouched", () => {
    const [path, broken, plain] = highlightEdges(edges, new Set(["e1"]), new Set(["e2"]));
    expect(path).toMatchObject({ animated: true, style: { stroke: PATH_STROKE, strokeWidth: 2 } });
    expect(broken).toMatchObject({ animated: false, style: { stroke: BROKEN_STROKE } });
    expect(plain).toBe(edges[2]);
  });

  test("a broken connection on the path is red, still animated", () => {
    const [edge] = highlightEdges(edges, new Set(["e1"]), new Set(["e1"]));
    expect(edge).toMatchObject({ animated: true, style: { stroke: BROKEN_STROKE } });
  });
});
