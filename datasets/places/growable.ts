/** Append-only typed arrays that double when full (builders of index sections). */

type TypedCtor<T> = { new (length: number): T };

export class Growable<T extends Uint8Array | Uint16Array | Uint32Array | Int32Array | Float32Array> {
  private data: T;
  length = 0;

  constructor(private readonly ctor: TypedCtor<T>, initial = 1024) {
    this.data = new ctor(initial);
  }

  push(value: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = value;
  }

  pushBytes(bytes: ArrayLike<number>): void {
    if (this.length + bytes.length > this.data.length) this.grow(this.length + bytes.length);
    (this.data as Uint8Array).set(bytes, this.length);
    this.length += bytes.length;
  }

  /** A view of the filled part (no copy). */
  view(): T {
    return this.data.subarray(0, this.length) as T;
  }

  private grow(min: number): void {
    let size = this.data.length * 2;
    while (size < min) size *= 2;
    const next = new this.ctor(size);
    (next as Uint8Array).set(this.data as Uint8Array);
    this.data = next;
  }
}
