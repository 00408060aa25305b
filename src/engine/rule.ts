// A rule is WGSL file(s) plus how the engine binds and dispatches them. The engine knows nothing else of it.

export type StateAccess = 'ping-pong' | 'in-place';

export interface Rule {
  /** label prefix for GPU objects and the pipeline cache */
  name: string;
  /** the rule's own WGSL files under shaders/, after the engine's (batch.wgsl and the state bindings) */
  files: string[];
  /** entry points dispatched in order for one generation (most rules have one) */
  entryPoints: string[];
  /**
   * 'ping-pong': reads `src`, writes `dst`, buffers swap after every entry point.
   * 'in-place': reads and writes `state` (atomic u32) itself; only for order-independent rules.
   */
  stateAccess: StateAccess;
  /** extra WGSL `override` values (WORKGROUP_SIZE is always set by the engine) */
  constants?: Record<string, number>;
  /**
   * Multi-generation dispatch: each workgroup advances its tile several generations in workgroup memory.
   * `generationsPerDispatch` is what one dispatch counts as; `exact` says the result equals as many single
   * generations (true for Life with a halo as deep as the generations; for in-place monotone rules run to a
   * tile-local fixpoint it is the final state that is the same, not each generation).
   */
  multiGeneration?: {
    entryPoint: string;
    generationsPerDispatch: number;
    exact: boolean;
    /** work items per grid in this mode, when they differ from the one-generation items */
    items?: (grid: GridInput) => number;
  };
  /** true: a grid is done when no item raised FLAG_PENDING in a generation (puzzles); false: it never is (Life) */
  tracksCompletion: boolean;
  /**
   * true: grids of fewer items than half a workgroup share workgroups (consecutive grids of equal items, packed
   * into one tile). SwiftShader pays ~10 us per workgroup, so 16 small grids in 16 workgroups cost 16x one. Only
   * for rules whose entry points go through `work_item` and report through `report_flags`/`report_count`.
   */
  sharesWorkgroups?: boolean;
}

/** One grid to add to a batch. */
export interface GridInput {
  width: number;
  height: number;
  /** work items (one invocation each) per dispatch in one-generation mode */
  items: number;
  /** initial state words */
  state: Uint32Array;
  /** read-only per-grid data (clues, walls); may be empty */
  aux?: Uint32Array;
  /** rule-specific header words param0..param3 */
  params?: number[];
  /** generation cap for this grid (counted from when it joins); default: the run's cap */
  maxGenerations?: number;
}
