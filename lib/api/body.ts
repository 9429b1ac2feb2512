import { AppError } from "@/lib/errors";

/**
 * Reads a request body as a stream with a byte count (SPEC §2 "Trust at the edges"): a declared
 * Content-Length over `maxBytes` is refused before anything is read, and a body that passes
 * `maxBytes` while it streams is refused the moment it does, its stream cancelled, so a client
 * sending gigabytes without a length costs at most `maxBytes` of memory and that much reading.
 * `tooLarge` makes the 413 the route words its own way.
 */
export async function readBodyText(
  req: Request,
  maxBytes: number,
  tooLarge: () => AppError,
): Promise<string> {
  return (await readBodyBytes(req, maxBytes, tooLarge)).toString("utf8");
}

/** The same, as the bytes that came: what a signature over the raw body is checked against. */
export async function readBodyBytes(
  req: Request,
  maxBytes: number,
  tooLarge: () => AppError,
): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? 0);
  if (declared > maxBytes) throw tooLarge();
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      // Not awaited: a source that never ends its cancel must not hold the 413 back.
      reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, bytes);
}
