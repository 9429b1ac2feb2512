import type { Readable, Writable } from "node:stream";

/** Where the CLI reads a password from: a terminal (typed, hidden) or a pipe (`echo … |`). */
export interface PasswordInput {
  stdin: Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  stderr: Writable;
}

/** The first line of a piped stdin, without its line ending; "" when nothing was piped. */
async function firstLine(stdin: Readable): Promise<string> {
  let text = "";
  for await (const chunk of stdin) {
    text += typeof chunk === "string" ? chunk : (chunk as Buffer).toString("utf8");
    if (text.includes("\n")) break;
  }
  return text.split(/\r?\n/)[0] ?? "";
}

/** Asks on the terminal without echoing what is typed (Enter ends, Backspace erases, Ctrl-C stops). */
function hiddenPrompt(input: PasswordInput, question: string): Promise<string> {
  const { stdin, stderr } = input;
  stderr.write(question);
  stdin.setRawMode?.(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let typed = "";
    const done = (finish: () => void) => {
      stdin.off("data", onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      stderr.write("\n");
      finish();
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of chunk.toString()) {
        if (char === "\r" || char === "\n") return done(() => resolve(typed));
        if (char === "\u0003") return done(() => reject(new Error("Cancelled.")));
        if (char === "\u007f" || char === "\b") typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.on("data", onData);
  });
}

/**
 * A password for `user create`, kept out of argv (where every user of the machine can read it in
 * the process list): typed at a hidden prompt on a terminal, else the first line of stdin.
 * "" means none was given.
 */
export function readPassword(input: PasswordInput): Promise<string> {
  return input.stdin.isTTY
    ? hiddenPrompt(input, "Password (leave empty to generate one): ")
    : firstLine(input.stdin);
}
