/**
 * The closed set of action types an agent or robot may propose, each `<area>:<verb>`. A proposal with any
 * other type is refused by schema, so a new kind of side-effect needs a protocol change, not a string.
 *
 * Which pentagon vertices apply (ARCHITECTURE.md §3) is listed per type; every type is audited.
 */
import { type Static, Type } from '@sinclair/typebox';

export const ACTION_TYPES = [
  /**
   * A write to a financial or business ledger (payment, transfer, booking, balance adjustment).
   * ECONOMY: the amount is reserved against the agent's budget; INVARIANT: protected ledgers refuse it;
   * PROVENANCE: amounts and counterparties taken from data carry their custody chain; RISK: injected
   * instructions are not executed; CONSENT: amounts above the policy threshold wait for a human.
   */
  'ledger:write',
  /**
   * A write to secret storage (API keys, credentials, signing keys). INVARIANT: vaults are protected
   * resources; CONSENT: always REQUIRE_HUMAN; RISK: injection screening of the arguments.
   */
  'vault:write',
  /**
   * A change to governance policy (rules, budgets, thresholds). INVARIANT: policies change only through
   * this governed route, never as the side-effect of another action; CONSENT: HELD_FOR_VETO so a human
   * can stop it within the veto window; the new policy digest is audited.
   */
  'policy:update',
  /**
   * A call to an external tool or API that no other type covers. RISK: prompt-injection screening;
   * ECONOMY: metered compute, loop and waste detection; PROVENANCE of data arguments; INVARIANT
   * for protected targets; CONSENT where the policy marks the tool critical.
   */
  'tool:invoke',
  /**
   * A read of records inside the tenant. PROVENANCE: the source's custody attestation is checked;
   * ECONOMY: metered like any call; RISK: content read back is screened before it can steer the agent.
   */
  'data:read',
  /**
   * Data leaving the tenant boundary (download, transfer to a third party). PROVENANCE and jurisdiction
   * (region, department rules); RISK: exfiltration screening; CONSENT for personal or bulk data.
   */
  'data:export',
  /**
   * A message to a human or another system (mail, chat, webhook). RISK: injection and exfiltration
   * screening; ECONOMY: metered; CONSENT for external recipients where the policy says so.
   */
  'message:send',
  /**
   * Physical motion through the edge node (joint trajectory or base twist). The cloud's kernel decides only
   * whether the agent may ask for it (its digital rules, as for a tool call); readings in the payload are the
   * agent's claims and decide nothing. The move itself runs only if the robot's edge signs it, after all five
   * physical gates pass on live telemetry: INVARIANT (torque limits, keep-out zones, stopping position),
   * ECONOMY (energy and battery reserve), RISK (no human within the operating radius / ISO/TS 15066
   * separation distance), PROVENANCE (signed firmware, valid calibration), CONSENT (signed operator
   * acknowledgement for high-torque moves).
   */
  'actuator:move',
  /**
   * A protective stop. Always allowed — no gate may refuse a stop — but it is still signed (a controller
   * obeys nothing unsigned), bumps the epoch and is audited.
   */
  'actuator:stop',
] as const;

export const ActionTypeSchema = Type.Union(ACTION_TYPES.map((a) => Type.Literal(a)));
export type ActionType = Static<typeof ActionTypeSchema>;
