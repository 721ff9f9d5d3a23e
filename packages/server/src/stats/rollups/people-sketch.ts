/**
 * The people of a group, kept so that groups of different days can be merged (DESIGN.md §7):
 * a 64-bit hash per person, as an exact list while a day's group is small, and as a HyperLogLog
 * of 4,096 one-byte registers (standard error 1.04/√4096 ≈ 1.6%) once it is not. A merge stays
 * exact while every part is a list and the union holds at most EXACT_UNION_MAX people; the count
 * of a merge that used registers is an estimate (Ertl 2017, "New cardinality estimation
 * algorithms for HyperLogLog sketches", the improved raw estimator, which needs no bias tables).
 *
 * Stored form: one byte 0 and the hashes (8 bytes each), or one byte 1 and the registers.
 */
import { createHash } from 'node:crypto';

const INDEX_BITS = 12;
const REGISTERS = 1 << INDEX_BITS;
/** Bits of the hash left after the index: a register holds 1 + their leading zeros, at most 53. */
const RANK_BITS = 64 - INDEX_BITS;
/** A stored list longer than this is kept as registers instead (8 bytes a person, 4 KB either way). */
export const EXACT_LIST_MAX = REGISTERS / 8;
/** A merge of lists is counted exactly up to this many people, then with registers. */
export const EXACT_UNION_MAX = 50_000;

const LIST = 0;
const DENSE = 1;

/** The 64-bit hash of a person, as 16 hex digits. */
export const personHash = (person: string) => createHash('md5').update(person).digest('hex').slice(0, 16);

export class PeopleSketch {
  private hashes: Set<string> | null = new Set();
  private registers: Uint8Array | null = null;

  /** Whether the count is an estimate. */
  get approximate(): boolean {
    return this.registers !== null;
  }

  add(hash: string): void {
    if (this.registers) setRegister(this.registers, hash);
    else {
      this.hashes?.add(hash);
      if ((this.hashes?.size ?? 0) > EXACT_UNION_MAX) this.toRegisters();
    }
  }

  /** Adds a stored sketch (`encode`'s bytes). */
  merge(stored: Uint8Array): void {
    if (stored[0] === LIST) {
      for (let at = 1; at + 8 <= stored.length; at += 8) {
        this.add(Buffer.from(stored.buffer, stored.byteOffset + at, 8).toString('hex'));
      }
      return;
    }
    if (!this.registers) this.toRegisters();
    const registers = this.registers as Uint8Array;
    for (let i = 0; i < REGISTERS; i++) {
      const value = stored[i + 1] as number;
      if (value > (registers[i] as number)) registers[i] = value;
    }
  }

  count(): number {
    return this.registers ? Math.round(estimate(this.registers)) : (this.hashes?.size ?? 0);
  }

  /** The stored form: the list while it holds at most EXACT_LIST_MAX people, else the registers. */
  encode(): Buffer {
    if (!this.registers && (this.hashes?.size ?? 0) <= EXACT_LIST_MAX) {
      return Buffer.concat([
        Buffer.from([LIST]),
        ...[...(this.hashes ?? [])].map((h) => Buffer.from(h, 'hex')),
      ]);
    }
    if (!this.registers) this.toRegisters();
    return Buffer.concat([Buffer.from([DENSE]), this.registers as Uint8Array]);
  }

  private toRegisters(): void {
    const registers = new Uint8Array(REGISTERS);
    for (const hash of this.hashes ?? []) setRegister(registers, hash);
    this.registers = registers;
    this.hashes = null;
  }
}

function setRegister(registers: Uint8Array, hash: string): void {
  const high = Number.parseInt(hash.slice(0, 8), 16);
  const low = Number.parseInt(hash.slice(8), 16);
  const index = high >>> (32 - INDEX_BITS);
  // The 52 bits after the index: 20 in `high`, 32 in `low`.
  const rest = high & ((1 << (32 - INDEX_BITS)) - 1);
  const rank =
    rest !== 0
      ? Math.clz32(rest) - INDEX_BITS + 1
      : low !== 0
        ? 32 - INDEX_BITS + Math.clz32(low) + 1
        : RANK_BITS + 1;
  if (rank > (registers[index] as number)) registers[index] = rank;
}

/** Ertl's improved raw estimator over register values 0…RANK_BITS + 1. */
function estimate(registers: Uint8Array): number {
  const histogram = new Array<number>(RANK_BITS + 2).fill(0);
  for (const value of registers) histogram[value] = (histogram[value] as number) + 1;
  const m = REGISTERS;
  let z = m * tau(1 - (histogram[RANK_BITS + 1] as number) / m);
  for (let k = RANK_BITS; k >= 1; k--) z = 0.5 * (z + (histogram[k] as number));
  z += m * sigma((histogram[0] as number) / m);
  return (m * m) / (2 * Math.LN2 * z);
}

function sigma(x: number): number {
  if (x === 1) return Number.POSITIVE_INFINITY;
  let y = 1;
  let z = x;
  let previous: number;
  do {
    x *= x;
    previous = z;
    z += x * y;
    y += y;
  } while (z !== previous);
  return z;
}

function tau(x: number): number {
  if (x === 0 || x === 1) return 0;
  let y = 1;
  let z = 1 - x;
  let previous: number;
  do {
    x = Math.sqrt(x);
    previous = z;
    y *= 0.5;
    z -= (1 - x) ** 2 * y;
  } while (z !== previous);
  return z / 3;
}
