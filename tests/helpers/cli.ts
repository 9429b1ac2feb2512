import { Readable, Writable } from "node:stream";
import { vi } from "vitest";
import { buildProgram } from "@/bin/cli";

/**
 * Runs the `tillflow` command in this process; `stdin` is what is piped to it (nothing by
 * default). Returns the lines it logged and what it wrote to stderr; a failing command rejects
 * with its error. The caller's `afterEach(() => vi.restoreAllMocks())` undoes the console spy
 * when a command throws.
 */
export async function tillflowWith(
  stdin: string,
  args: string[],
): Promise<{ printed: string[]; stderr: string }> {
  const printed: string[] = [];
  let stderr = "";
  vi.spyOn(console, "log").mockImplementation((line: string) => void printed.push(line));
  const errors = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      stderr += chunk.toString();
      callback();
    },
  });
  await buildProgram({ stdin: Readable.from(stdin ? [stdin] : []), stderr: errors }).parseAsync([
    "node",
    "tillflow",
    ...args,
  ]);
  vi.restoreAllMocks();
  return { printed, stderr };
}

/** The lines `tillflow <args>` logs, run in this process with nothing on stdin. */
export async function tillflow(...args: string[]): Promise<string[]> {
  return (await tillflowWith("", args)).printed;
}
