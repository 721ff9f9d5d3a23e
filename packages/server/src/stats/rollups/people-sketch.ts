/**
 * The people of a group, kept so that groups of different days can be merged (DESIGN.md §7):
 * a 53-bit hash per person (a JavaScript number), as an exact list while a day's group is small,
 * and as a HyperLogLog of 4,096 one-byte registers (standard error 1.04/√4096 ≈ 1.6%) once it is
 * not. A merge stays exact while every part is a list and the union holds at most
 * EXACT_UNION_MAX people; the count of a merge that used registers is an estimate (Ertl 2017,
 * "New cardinality estimation algorithms for HyperLogLog sketches", the improved raw estimator,
 * which needs no bias tables). A register takes the hash's first 12 bits as its index and counts
 * the leading zeros of the other 41.
 *
 * Stored form: one byte 0 and the hashes (8 bytes each, big-endian), or one byte 1 and the
 * registers.
 */
import { createHash } from 'node:crypto';

const INDEX_BITS = 12;
const REGISTERS = 1 << INDEX_BITS;
const RANK_BITS = 53 - INDEX_BITS;
const TWO_32 = 2 ** 32;
const TWO_RANK_BITS = 2 ** RANK_BITS;
/** A stored list longer than this is kept as registers instead (8 bytes a person, 4 KB either way). */
export const EXACT_LIST_MAX = REGISTERS / 8;
/** A merge of lists is counted exactly up to this many people, then with registers. */
export const EXACT_UNION_MAX = 20_000;

const LIST = 0;
const DENSE = 1;

/** The 53-bit hash of a person. */
export function personHash(person: string): number {
  const digest = createHash('md5').update(person).digest();
  return (digest.readUInt32BE(0) >>> 11) * TWO_32 + digest.readUInt32BE(4);
}

export class PeopleSketch {
  private hashes: Set<number> | null = new Set();
  private registers: Uint8Array | null = null;

  /** Whether the count is an estimate. */
  get approximate(): boolean {
    return this.registers !== null;
  }

  add(hash: number): void {
    if (this.registers) setRegister(this.registers, hash);
    else {
      const hashes = this.hashes as Set<number>;
      hashes.add(hash);
      if (hashes.size > EXACT_UNION_MAX) this.toRegisters();
    }
  }

  /** Adds a stored sketch (`encode`'s bytes). */
  merge(stored: Uint8Array): void {
    const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
    if (bytes[0] === LIST) {
      for (let at = 1; at + 8 <= bytes.length; at += 8) {
        this.add(bytes.readUInt32BE(at) * TWO_32 + bytes.readUInt32BE(at + 4));
      }
      return;
    }
    if (!this.registers) this.toRegisters();
    const registers = this.registers as Uint8Array;
    for (let i = 0; i < REGISTERS; i++) {
      const value = bytes[i + 1] as number;
      if (value > (registers[i] as number)) registers[i] = value;
    }
  }

  count(): number {
    return this.registers ? Math.round(estimate(this.registers)) : (this.hashes?.size ?? 0);
  }

  /** The stored form: the list while it holds at most EXACT_LIST_MAX people, else the registers. */
  encode(): Buffer {
    const hashes = this.hashes;
    if (hashes && hashes.size <= EXACT_LIST_MAX) {
      const list = Buffer.alloc(1 + 8 * hashes.size);
      list[0] = LIST;
      let at = 1;
      for (const hash of hashes) {
        list.writeUInt32BE(Math.floor(hash / TWO_32), at);
        list.writeUInt32BE(hash % TWO_32, at + 4);
        at += 8;
      }
      return list;
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

function setRegister(registers: Uint8Array, hash: number): void {
  const index = Math.floor(hash / TWO_RANK_BITS);
  const rest = hash % TWO_RANK_BITS;
  // The 41 bits after the index: 9 above 2^32, 32 below.
  const high = Math.floor(rest / TWO_32);
  const low = rest % TWO_32;
  const rank =
    high !== 0
      ? Math.clz32(high) - (32 - (RANK_BITS - 32)) + 1
      : low !== 0
        ? RANK_BITS - 32 + Math.clz32(low) + 1
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

/**
 * A stored sketch with some people's hashes swapped for others (privacy erasure): the count,
 * and every merge that uses the same swaps, stay as they were, but the stored hashes no longer
 * lead to those people. Null when the sketch holds none of them or holds registers, where no
 * single person can be read back.
 */
export function swapPeople(stored: Uint8Array, swaps: ReadonlyMap<number, number>): Buffer | null {
  const bytes = Buffer.from(stored);
  if (bytes[0] !== LIST) return null;
  let swapped = false;
  for (let at = 1; at + 8 <= bytes.length; at += 8) {
    const replacement = swaps.get(bytes.readUInt32BE(at) * TWO_32 + bytes.readUInt32BE(at + 4));
    if (replacement === undefined) continue;
    bytes.writeUInt32BE(Math.floor(replacement / TWO_32), at);
    bytes.writeUInt32BE(replacement % TWO_32, at + 4);
    swapped = true;
  }
  return swapped ? bytes : null;
}
