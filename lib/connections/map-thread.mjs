// The delivery thread (map-body.ts). The mappers are TypeScript: tsx compiles them on the fly, as
// it does for the worker itself.
import { register } from "tsx/esm/api";

register();
await import("./map-thread.ts");
