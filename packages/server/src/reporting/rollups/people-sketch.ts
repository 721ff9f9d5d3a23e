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
import { hash } from 'node:crypto';

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
  // The one-shot hash as hex is about three times faster than a Hash object and a Buffer, and
  // reports hash every person of the days not rolled up yet.
  const digest = hash('md5', person, 'hex');
  return (Number.parseInt(digest.slice(0, 8), 16) >>> 11) * TWO_32 + Number.parseInt(digest.slice(8, 16), 16);
}

/** The most list hashes a sketch holds before it drops repeats (8 bytes each: 640 KB). */
const LIST_CAPACITY_MAX = 4 * EXACT_UNION_MAX;

export class PeopleSketch {
  /**
   * While the sketch is a list: its hashes in `list[0, size)`, with repeats until `settle` sorts
   * them and drops the repeats. Collecting first and sorting once is several times faster than
   * a Set of numbers over a month of a large site's pages (bench/RESULTS.md).
   */
  private list = new Float64Array(16);
  private size = 0;
  private settled = true;
  private registers: Uint8Array | null = null;

  /** Whether the count is an estimate. */
  get approximate(): boolean {
    this.settle();
    return this.registers !== null;
  }

  add(hash: number): void {
    if (!this.registers && this.size === this.list.length) this.makeRoom();
    if (this.registers) setRegister(this.registers, hash);
    else {
      this.list[this.size++] = hash;
      this.settled = false;
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
    this.settle();
    return this.registers ? Math.round(estimate(this.registers)) : this.size;
  }

  /** The stored form: the list while it holds at most EXACT_LIST_MAX people, else the registers. */
  encode(): Buffer {
    this.settle();
    if (!this.registers && this.size <= EXACT_LIST_MAX) {
      const list = Buffer.alloc(1 + 8 * this.size);
      list[0] = LIST;
      for (let i = 0, at = 1; i < this.size; i++, at += 8) {
        const hash = this.list[i] as number;
        list.writeUInt32BE(Math.floor(hash / TWO_32), at);
        list.writeUInt32BE(hash % TWO_32, at + 4);
      }
      return list;
    }
    if (!this.registers) this.toRegisters();
    return Buffer.concat([Buffer.from([DENSE]), this.registers as Uint8Array]);
  }

  /** Sorts the list and drops repeats; past EXACT_UNION_MAX people, switches to registers. */
  private settle(): void {
    if (this.settled || this.registers) return;
    const list = this.list.subarray(0, this.size).sort();
    let distinct = 0;
    for (let i = 0; i < list.length; i++) {
      if (i === 0 || list[i] !== list[distinct - 1]) list[distinct++] = list[i] as number;
    }
    this.size = distinct;
    this.settled = true;
    if (distinct > EXACT_UNION_MAX) this.toRegisters();
  }

  /** Room for one more hash: a larger list, or, at LIST_CAPACITY_MAX, the repeats dropped. */
  private makeRoom(): void {
    if (this.list.length >= LIST_CAPACITY_MAX) {
      // Leaves at least three quarters free: more than EXACT_UNION_MAX people are registers.
      this.settle();
      return;
    }
    const larger = new Float64Array(this.list.length * 2);
    larger.set(this.list);
    this.list = larger;
  }

  private toRegisters(): void {
    const registers = new Uint8Array(REGISTERS);
    for (let i = 0; i < this.size; i++) setRegister(registers, this.list[i] as number);
    this.registers = registers;
    this.list = new Float64Array(0);
    this.size = 0;
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

/**
 * Whether a stored sketch is a list of none but these people (privacy erasure: a rollup row only
 * they made). False for registers, which always hold more people than a person has ids.
 */
export function holdsOnly(stored: Uint8Array, people: ReadonlySet<number>): boolean {
  const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  if (bytes[0] !== LIST || bytes.length < 9) return false;
  for (let at = 1; at + 8 <= bytes.length; at += 8) {
    if (!people.has(bytes.readUInt32BE(at) * TWO_32 + bytes.readUInt32BE(at + 4))) return false;
  }
  return true;
}
