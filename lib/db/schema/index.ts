export * from "./auth";
export * from "./tenants";
export * from "./entities";
export * from "./workers";
export * from "./automations";
export * from "./schedules";
export * from "./audit";
export * from "./limits";
