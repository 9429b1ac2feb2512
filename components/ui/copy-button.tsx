"use client";

import { useState } from "react";
import { Button, type ButtonSize } from "./button";

type CopyState = "idle" | "copied" | "failed";

/** Copies `value` to the clipboard and says so; if the browser refuses, it says that instead. */
export function CopyButton({
  value,
  label = "Copy",
  size = "sm",
}: {
  value: string;
  label?: string;
  size?: ButtonSize;
}) {
  const [state, setState] = useState<CopyState>("idle");

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      // Clipboard access can be blocked (permissions, insecure origin); the value stays selectable.
      setState("failed");
    }
  }

  return (
    <span className="inline-flex items-center gap-2">
      <Button size={size} onClick={copy}>
        {state === "copied" ? "Copied" : label}
      </Button>
      <span role="status" className="text-xs text-zinc-600">
        {state === "copied" && <span className="sr-only">Copied to the clipboard.</span>}
        {state === "failed" && "Your browser blocked copying; select the text and copy it by hand."}
      </span>
    </span>
  );
}
