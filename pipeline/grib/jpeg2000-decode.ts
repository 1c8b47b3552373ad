/**
 * JPEG 2000 code streams of GRIB2 template 5.40, decoded by OpenJPEG (the WebAssembly build
 * `@cornerstonejs/codec-openjpeg`, whose .wasm ships inside the npm package: nothing is
 * downloaded). Decoding stays synchronous like the rest of decodeField: the module is compiled
 * and instantiated synchronously (Emscripten's `instantiateWasm` hook) the first time a 5.40
 * field is decoded, about 10 ms, and reused after that.
 * Output: `count` unsigned integer samples (the caller applies R, E and D, as ecCodes does).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { DataFormatError } from "../../datasets/common/errors.ts";

interface FrameInfo {
  width: number;
  height: number;
  bitsPerSample: number;
  componentCount: number;
  isSigned: boolean;
}

interface J2KDecoder {
  delete(): void;
  getEncodedBuffer(length: number): Uint8Array;
  decode(): void;
  getFrameInfo(): FrameInfo;
  getDecodedBuffer(): Uint8Array;
}

interface OpenJpegModule {
  J2KDecoder: new () => J2KDecoder;
}

export interface Jpeg2000Source {
  file: string;
  offset: number;
}

/** The part of the WebAssembly global we use (the project's TypeScript libs do not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let openjpeg: OpenJpegModule | undefined;
/** OpenJPEG's last message on its error stream (it prints, then fails). */
let lastMessage = "";

function loadModule(): OpenJpegModule {
  if (openjpeg) return openjpeg;
  const require = createRequire(import.meta.url);
  const factory = require("@cornerstonejs/codec-openjpeg/decodewasmjs") as (arg: Record<string, unknown>) => Promise<unknown>;
  const binary = readFileSync(require.resolve("@cornerstonejs/codec-openjpeg/decodewasm"));
  const moduleArg: Record<string, unknown> = {
    print: () => {},
    printErr: (message: string) => {
      lastMessage = String(message);
    },
    instantiateWasm(imports: object, receive: (instance: object, module: object) => void) {
      const module = new wasm.Module(binary);
      const instance = new wasm.Instance(module, imports);
      receive(instance, module);
      return instance.exports;
    },
  };
  // The promise resolves to moduleArg itself; with the synchronous hook its exports are there now.
  void factory(moduleArg).catch(() => {});
  const mod = moduleArg as unknown as Partial<OpenJpegModule>;
  if (typeof mod.J2KDecoder !== "function") throw new Error("OpenJPEG WebAssembly module did not initialise synchronously (@cornerstonejs/codec-openjpeg)");
  openjpeg = mod as OpenJpegModule;
  return openjpeg;
}

/** Decodes the code stream `stream` of a field with `count` packed values into `out[0, count)`. */
export function decodeJpeg2000(stream: Uint8Array, count: number, out: Float64Array, src: Jpeg2000Source): void {
  // A fresh decoder per stream: a failed decode must not leave the previous image behind.
  const d = new (loadModule().J2KDecoder)();
  let info: FrameInfo;
  let decoded: Uint8Array;
  lastMessage = "";
  try {
    d.getEncodedBuffer(stream.length).set(stream);
    d.decode();
    info = d.getFrameInfo();
    decoded = d.getDecodedBuffer().slice();
  } catch (err) {
    // A failed decode may leave the WebAssembly instance unusable: start afresh next time.
    openjpeg = undefined;
    const why = lastMessage || (err instanceof Error ? err.message : String(err));
    throw new DataFormatError(src, "a JPEG 2000 code stream OpenJPEG can decode", why.trim() || "a decoding failure");
  } finally {
    try {
      d.delete();
    } catch {
      openjpeg = undefined;
    }
  }
  if (lastMessage) throw new DataFormatError(src, "a JPEG 2000 code stream OpenJPEG can decode", lastMessage.trim());
  if (info.componentCount === 0 || info.width * info.height === 0) throw new DataFormatError(src, "a JPEG 2000 code stream OpenJPEG can decode", "no image decoded");
  if (info.componentCount !== 1) throw new DataFormatError(src, "a JPEG 2000 image of 1 component", `${info.componentCount} components`);
  const pixels = info.width * info.height;
  if (pixels !== count) throw new DataFormatError(src, `a JPEG 2000 image of ${count} pixels (the packed values)`, `${info.width} x ${info.height}`);
  const width = pixels === 0 ? 0 : decoded.length / pixels;
  const view =
    width === 1 ? decoded
    : width === 2 ? new (info.isSigned ? Int16Array : Uint16Array)(decoded.buffer as ArrayBuffer, decoded.byteOffset, pixels)
    : width === 4 ? new (info.isSigned ? Int32Array : Uint32Array)(decoded.buffer as ArrayBuffer, decoded.byteOffset, pixels)
    : undefined;
  if (!view) throw new DataFormatError(src, "1, 2 or 4 octets per decoded sample", `${decoded.length} octets for ${pixels} samples`);
  for (let i = 0; i < count; i++) out[i] = view[i]!;
}
