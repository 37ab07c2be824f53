/**
 * ECONOMY (ARCHITECTURE.md §3): the move's estimated energy (motion-energy.ts) fits the allocation of its move class,
 * leaves the reserve needed to reach a safe state, and the battery can deliver the peak current without the
 * terminal voltage sagging below the drives' minimum. Stale or missing battery data → veto.
 *
 *   E_avail = SoC · capacityWh                                                     [Wh]
 *   E_avail − E_move ≥ reserveWh                                                   (reserve)
 *   I_peak = max(I_measured, 0) + P_peak_mech / efficiency / V_measured            [A]
 *   V_sag  = V_measured − I_peak · R_internal ≥ minVoltageV                        (Thevenin battery model)
 *
 * Codes: ECONOMY.OVER_ALLOCATION, ECONOMY.NO_ALLOCATION, ECONOMY.RESERVE, ECONOMY.VOLTAGE_SAG,
 * ECONOMY.STALE_DATA, ECONOMY.MISSING_DATA.
 */
import { type BatteryFrame, type GateResult, edgeViolation } from '@pentagate/protocol';
import {
  type GateContext,
  describeFrame,
  fmt,
  fmtOver,
  freshFrame,
  measuredJointState,
  result,
} from './gate-context.js';
import { motionEnergy } from './motion-energy.js';

const V = 'ECONOMY' as const;

export function economyGate(ctx: GateContext): GateResult {
  const violations: string[] = [];
  const b = ctx.cp.profile.battery;
  const battery = freshFrame<BatteryFrame>(ctx, V, ctx.cp.batterySource, 'battery', violations);
  let startRad: number[] | undefined;
  if (ctx.plan.kind === 'joint') {
    startRad = measuredJointState(ctx, V, violations, [])?.positionsRad;
  }
  if (!battery || violations.length > 0) return result(V, violations, {});
  const energy = motionEnergy(ctx.cp.profile, ctx.plan, startRad, ctx.speedScale);
  const moveClass = ctx.plan.intent.moveClass ?? 'default';
  // Own members only: the planner names the class, and `constructor` or `toString` read through the object's
  // prototype gave a function, which compared as no excess, so the move passed with no allocation at all.
  const allocationWh = Object.hasOwn(b.allocationsWh, moveClass) ? b.allocationsWh[moveClass] : undefined;
  const availableWh = battery.frame.stateOfCharge * b.capacityWh;
  const voltageV = battery.frame.voltageV;
  const peakCurrentA =
    Math.max(0, battery.frame.currentA) +
    (voltageV > 0 ? energy.peakMechanicalW / b.efficiency / voltageV : Infinity);
  const sagV = voltageV - peakCurrentA * b.internalResistanceOhm;
  const src = describeFrame(battery);
  if (allocationWh === undefined) {
    violations.push(
      edgeViolation(
        'ECONOMY.NO_ALLOCATION',
        `move class ${moveClass} has no energy allocation in the profile`,
      ),
    );
  } else if (energy.electricalWh > allocationWh) {
    violations.push(
      edgeViolation(
        'ECONOMY.OVER_ALLOCATION',
        `move needs ${fmtOver(energy.electricalWh, allocationWh, 'Wh', 3, `${moveClass} allocation`)}`,
      ),
    );
  }
  if (availableWh - energy.electricalWh < b.reserveWh) {
    violations.push(
      edgeViolation(
        'ECONOMY.RESERVE',
        `${fmt(availableWh, 2)} Wh available − ${fmt(energy.electricalWh, 3)} Wh move < reserve ${fmt(b.reserveWh, 2)} Wh (${src})`,
      ),
    );
  }
  if (!(sagV >= b.minVoltageV)) {
    violations.push(
      edgeViolation(
        'ECONOMY.VOLTAGE_SAG',
        `${fmt(voltageV, 2)} V − ${fmt(peakCurrentA, 2)} A × ${fmt(b.internalResistanceOhm, 3)} Ω = ${fmt(sagV, 2)} V < minimum ${fmt(b.minVoltageV, 2)} V (${src})`,
      ),
    );
  }
  return result(V, violations, {
    moveClass,
    energyWh: energy.electricalWh,
    allocationWh: allocationWh ?? null,
    availableWh,
    peakCurrentA,
    sagVoltageV: sagV,
    durationS: energy.durationS,
  });
}
