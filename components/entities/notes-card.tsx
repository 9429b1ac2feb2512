import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/relative-time";

export interface NoteView {
  id: string;
  body: string;
  author: string;
  createdAt: string;
}

/** A record's notes, oldest first, each with who wrote it (a person, an API key or an automation) and when. */
export function NotesCard({ notes }: { notes: NoteView[] }) {
  return (
    <Card>
      <CardHeader title="Notes" description="Written by staff, API clients and automations." />
      <CardBody>
        {notes.length === 0 ? (
          <p className="text-sm text-zinc-500">No notes yet.</p>
        ) : (
          <ul className="space-y-4">
            {notes.map((note) => (
              <li key={note.id} className="text-sm">
                <p className="whitespace-pre-wrap text-zinc-800">{note.body}</p>
                <p className="mt-1 text-xs text-zinc-500">
                  {note.author} · <RelativeTime value={note.createdAt} />
                </p>
              </li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}
