/**
 * Bytes that outlive the request that made them (a kept answer, a fragment, a deflated copy), in a
 * store of their own size.
 *
 * Why: a view keeps its whole backing store alive, and node hands out small buffers as views of a
 * shared pool slab (`Buffer.poolSize`, 64 KiB on node 26): `deflateRawSync`'s output, `Buffer.from`
 * of a short text, a JSON writer's run. One long-lived 1 KB view pins a whole slab: warming a
 * worker with every endpoint on the embedded default left 251 deflated copies and 121 fragments
 * holding 23 MiB of 64 KiB slabs, and 81 kept answers 5 MiB (heap snapshot). The copy costs about
 * 0.1 µs per KB, once per kept value.
 */
export function ownedBytes(bytes: Buffer): Buffer {
  if (bytes.buffer.byteLength <= bytes.byteLength + (bytes.byteLength >> 3)) return bytes;
  // allocUnsafeSlow: a store of exactly this size, never a view of the pool.
  const own = Buffer.allocUnsafeSlow(bytes.byteLength);
  bytes.copy(own);
  return own;
}
