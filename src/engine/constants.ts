// Constants shared by host and shaders. Each reaches WGSL as a pipeline `override`, so it is defined once here.

/** invocations per workgroup: `@workgroup_size(WORKGROUP_SIZE)` in every engine shader, and the host's tile size */
export const WORKGROUP_SIZE = 64;

/** per-grid status words (shaders/engine/batch.wgsl): flags, last changed generation, rule counter, spare */
export const STATUS_WORDS = 4;

/** flag bits every rule shares; rules may use bits from RULE_FLAG_BASE up for their own meaning */
export const FLAG_CHANGED = 1;
export const FLAG_CONTRADICTION = 2;
/** raised by a cell/item that is not final yet; a grid whose rule tracks completion is done when no item raises it */
export const FLAG_PENDING = 4;
export const RULE_FLAG_BASE = 256;

/** uniform entries are addressed by dynamic offset; WebGPU's minUniformBufferOffsetAlignment is at most 256 */
export const STEP_STRIDE = 256;
/** the most generations encoded between two readbacks */
export const MAX_CHUNK = 4096;
