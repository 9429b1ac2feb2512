import { Notice } from "@/components/ui/notice";

/** Why a publish or a dry run did not happen, with the ready issues it names. */
export type Failure = { title: string; text: string; issues: string[] };

export function FailureNotice({ failure, className }: { failure: Failure; className?: string }) {
  return (
    <Notice tone="error" title={failure.title} className={className}>
      <p>{failure.text}</p>
      {failure.issues.length > 0 && (
        <ul className="mt-1.5 list-disc space-y-1 pl-5">
          {failure.issues.map((issue, i) => (
            <li key={`${i}-${issue}`}>{issue}</li>
          ))}
        </ul>
      )}
    </Notice>
  );
}
