/**
 * A battery as a Thevenin source: open-circuit voltage falling linearly with state of charge (from 105 % of
 * nominal when full to 90 % when empty), an internal resistance, and the terminal voltage that sags under
 * load: V = V_oc(SoC) − I·R, with I the current that delivers the electrical power P = V·I (solved exactly).
 * State of charge falls by P·dt / capacity. Parameters come from the robot profile's `battery` section.
 */
import type { BatteryProfile } from '@pentagate/protocol';

export interface BatteryReading {
  voltageV: number;
  currentA: number;
  stateOfCharge: number;
}

export class BatteryModel {
  readonly profile: BatteryProfile;
  #soc: number;
  #currentA = 0;
  /** Terminal voltage during the last step (the current was solved against it), V. */
  #terminalV: number | undefined;

  constructor(profile: BatteryProfile, stateOfCharge = 0.9) {
    this.profile = profile;
    this.#soc = Math.min(1, Math.max(0, stateOfCharge));
  }

  get stateOfCharge(): number {
    return this.#soc;
  }

  openCircuitVoltageV(): number {
    return this.profile.nominalVoltageV * (0.9 + 0.15 * this.#soc);
  }

  /** Draws `electricalW` for `dtMs`; `extraDrainWh` models a scripted drain (a heater, a fault). */
  step(dtMs: number, electricalW: number, extraDrainWh = 0): void {
    const voc = this.openCircuitVoltageV();
    const r = this.profile.internalResistanceOhm;
    // P = (Voc − I·R)·I  →  R·I² − Voc·I + P = 0; the smaller root is the physical one.
    const disc = voc * voc - 4 * r * electricalW;
    this.#currentA =
      r > 0 ? (disc > 0 ? (voc - Math.sqrt(disc)) / (2 * r) : voc / (2 * r)) : electricalW / voc;
    this.#terminalV = Math.max(0, voc - this.#currentA * r);
    const usedWh = (electricalW * dtMs) / 3_600_000 + extraDrainWh;
    this.#soc = Math.max(0, this.#soc - usedWh / this.profile.capacityWh);
  }

  /** Sets the state of charge directly (a scenario that starts nearly empty). */
  setStateOfCharge(soc: number): void {
    this.#soc = Math.min(1, Math.max(0, soc));
    this.#terminalV = undefined;
  }

  reading(): BatteryReading {
    const voltageV = this.#terminalV ?? this.openCircuitVoltageV();
    return { voltageV, currentA: this.#currentA, stateOfCharge: this.#soc };
  }
}
