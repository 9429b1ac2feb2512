#!/usr/bin/env node
// The `tillflow` command. The CLI is TypeScript; tsx compiles it on the fly so there is no build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("./cli.ts");
await main(process.argv);
