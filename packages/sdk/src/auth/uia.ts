/**
 * The pure rules of interactive auth (SPEC §4): which flow to take and which
 * stage to run next. A flow is eligible only if it fits the inputs the user
 * gave: a flow with an email stage needs an email address, one with a phone
 * stage a phone number ('No appropriate authentication flow found'
 * otherwise). Among eligible flows the lowest score wins, each stage the
 * client cannot do adding 10; ties keep the server's order.
 */
import type { AuthFlow } from "../api/types/auth";
import { AuthError, NO_FLOW_MESSAGE } from "./errors";

/** Stage names of the spec. */
export const AuthType = {
  Dummy: "m.login.dummy",
  Password: "m.login.password",
  Email: "m.login.email.identity",
  Msisdn: "m.login.msisdn",
  Terms: "m.login.terms",
  RegistrationToken: "m.login.registration_token",
  Recaptcha: "m.login.recaptcha",
  Sso: "m.login.sso",
} as const;

/** SPEC §4: what each stage the client cannot do adds to a flow's score. */
export const UNSUPPORTED_STAGE_PENALTY = 10;

/** What the user gave that some stages need. */
export interface FlowInputs {
  emailAddress?: string;
  phoneNumber?: string;
}

/** The score of a flow: 10 per stage not in `supported`. */
export function scoreFlow(flow: AuthFlow, supported: ReadonlySet<string>): number {
  return flow.stages.reduce(
    (score, stage) => score + (supported.has(stage) ? 0 : UNSUPPORTED_STAGE_PENALTY),
    0,
  );
}

/** Whether a flow can be followed with the inputs given (email and phone stages need them). */
export function flowFitsInputs(flow: AuthFlow, inputs: FlowInputs): boolean {
  const hasEmail = inputs.emailAddress !== undefined && inputs.emailAddress !== "";
  const hasPhone = inputs.phoneNumber !== undefined && inputs.phoneNumber !== "";
  if (flow.stages.includes(AuthType.Email) && !hasEmail) return false;
  if (flow.stages.includes(AuthType.Msisdn) && !hasPhone) return false;
  return true;
}

/**
 * Picks the lowest-scoring eligible flow; throws AuthError NO_FLOW with the
 * spec's message when none fits.
 */
export function chooseFlow(
  flows: readonly AuthFlow[],
  supported: ReadonlySet<string>,
  inputs: FlowInputs,
): AuthFlow {
  let best: { flow: AuthFlow; score: number } | undefined;
  for (const flow of flows) {
    if (!flowFitsInputs(flow, inputs)) continue;
    const score = scoreFlow(flow, supported);
    if (best === undefined || score < best.score) best = { flow, score };
  }
  if (best === undefined) throw new AuthError("NO_FLOW", NO_FLOW_MESSAGE);
  return best.flow;
}

/** The first stage of `flow` not yet completed, or undefined when all are. */
export function nextStage(flow: AuthFlow, completed: readonly string[]): string | undefined {
  return flow.stages.find((stage) => !completed.includes(stage));
}
