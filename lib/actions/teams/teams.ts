"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { createTeam, deleteTeam, updateTeam } from "@/lib/teams/teams";

const members = z.array(z.string().min(1).max(320)).max(200);

/** Adds a team of the shop's staff (admins). */
export const createTeamAction = action(
  { role: "admin", input: z.object({ name: z.string().max(200), members }) },
  async (input, caller) => {
    const team = await createTeam(caller, input);
    refresh();
    return team;
  },
);

/** Renames a team and/or replaces its members (admins); members taken out lose their unused votes. */
export const updateTeamAction = action(
  { role: "admin", input: z.object({ id: z.string().min(1).max(200), name: z.string().max(200), members }) },
  async ({ id, ...input }, caller) => {
    const team = await updateTeam(caller, id, input);
    refresh();
    return team;
  },
);

/** Deletes a team (admins). */
export const deleteTeamAction = action(
  { role: "admin", input: z.object({ id: z.string().min(1).max(200) }) },
  async ({ id }, caller) => {
    const done = await deleteTeam(caller, id);
    refresh();
    return done;
  },
);
