//===- MemoptAttrs.td - memopt's plan attributes ------------*- tablegen -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The decisions of kernel formation, written into the IR: the target
// description every pass reads (`#memopt.target`) and one strategy
// attribute per kernel family, attached to `memopt.kernel_group` ops by
// memopt-select-kernel-strategy and obeyed by memopt-emit-kernels. Every
// field is a choice the emitter would otherwise make; a test or a user can
// pin any of them.
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_DIALECT_MEMOPTATTRS_TD
#define MEMOPT_DIALECT_MEMOPTATTRS_TD

include "memopt/Dialect/MemoptBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

class Memopt_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Memopt_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

//===----------------------------------------------------------------------===//
// Target description
//===----------------------------------------------------------------------===//

def Memopt_TargetAttr : Memopt_Attr<"Target", "target"> {
  let summary = "the chip facts every memopt pass reads";
  let description = [{
    One description of the GPU, attached to the module as `memopt.target`
    (by memopt-set-target, from the table of known chips in
    lib/Dialect/Target.cpp, each field overridable). Kernel formation, the
    shared-memory pipeliner, the bank-conflict repair, the traffic model and
    the manifest read their limits here and nowhere else.

    ```mlir
    module attributes {memopt.target = #memopt.target<chip = "sm_90",
        multiprocessors = 132, warp_size = 32, max_threads_per_block = 1024,
        registers_per_multiprocessor = 65536,
        shared_memory_per_multiprocessor = 233472,
        shared_memory_per_block = 49152,
        max_shared_memory_per_block = 232448, l2_bytes = 52428800,
        portable_cluster_size = 8, max_cluster_size = 16,
        vector_bytes = 16>} { ... }
    ```
    `cache_line_bytes` (L1 line, 128 on sm_70 and later; printed only when
    it differs) is what one warp-wide access should cover per row.
  }];
  let parameters = (ins
    StringRefParameter<"NVVM chip">:$chip,
    "int64_t":$multiprocessors,
    "int64_t":$warp_size,
    "int64_t":$max_threads_per_block,
    "int64_t":$registers_per_multiprocessor,
    "int64_t":$shared_memory_per_multiprocessor,
    "int64_t":$shared_memory_per_block,
    "int64_t":$max_shared_memory_per_block,
    "int64_t":$l2_bytes,
    "int64_t":$portable_cluster_size,
    "int64_t":$max_cluster_size,
    "int64_t":$vector_bytes,
    DefaultValuedParameter<"int64_t", "128">:$cache_line_bytes);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Kernel strategies
//===----------------------------------------------------------------------===//

def Memopt_RowStrategyAttr : Memopt_Attr<"RowStrategy", "row"> {
  let summary = "a row kernel: one block (or cluster) per row, row on chip";
  let description = [{
    Each row of the group's row space is held by one block, or by a
    thread-block cluster of `cluster` blocks each holding a slice. Every
    thread holds `chunks` chunks of `vector` consecutive elements in
    registers and `shared_chunks` more in shared memory (copied in with
    cp.async; clusters only). `shifted`: chunk boundaries follow the
    buffers' `vector`-element alignment (rows whose length is not a
    multiple of it). `blocks_per_multiprocessor` above 1 becomes the
    kernel's `.minnctapersm`. `persistent_clusters` above 0: that many
    clusters walk the rows, prefetching their next row's slice into shared
    memory. `online_softmax`: a maximum followed by a sum of exp(v - max)
    exchanges once between the blocks of a cluster. `rows_per_block` above
    1 (default 1, not printed then): each block holds that many rows, one
    per group of `threads` threads (a warp: short rows), so blocks are not
    a single warp; it divides the rows and excludes clusters and staging.
    `interleaved` (default false): the block's `rows_per_block` rows lie
    side by side instead, row r of the block held by the threads t with
    t mod rows_per_block = r (`threads` of them per row), so that a warp
    reads consecutive rows: the layout of a normalization over a loop that
    is not the innermost (softmax over dim 0), interchanged so that the
    rows are the contiguous dim. There `vector` is the number of adjacent
    rows each thread holds (rows (t mod (rows_per_block / vector)) *
    vector + k of the block, k < vector, held by the threads t / (
    rows_per_block / vector)): every access along the rows is one aligned
    vector across them, one element of each row at a time along the row;
    it divides rows_per_block and the last outer dim (the selection takes
    1 unless the interleaved-rows-per-thread option allows more: several
    measured slower, run 52). No shifted chunks,
    no staging, no online softmax; clusters split the rows as usual.
    `column_partials` above 0 (default 0, not printed then): the group ends
    with reductions over its rows (column reductions of the same inputs:
    LayerNorm backward's dgamma and dbeta beside dx); that many blocks walk
    the rows (rows block, block + column_partials, ...), each thread
    accumulating its columns in registers, store their partials in a
    [column_partials * rows_per_block, inner] workspace, and a second
    kernel combines them in block order with each output's initial value.
    One block per row (cluster 1), no shifted chunks, no staging, not
    interleaved. `shared_accumulators` (default false): the accumulators
    live in shared memory, [rows_per_block][column reductions][inner] per
    block, each thread updating its own columns, instead of registers (a
    block's registers then hold its rows' inputs only, so more rows are in
    flight per multiprocessor). `prefetch_rows` (default 0): each
    row-walking block holds the inputs of its next `prefetch_rows` rows in
    registers (loaded before the loop, then one row further each time a
    row starts, carried by the loop), so that that many rows' loads are in
    flight while a row reduces.
    `block_order` (default empty, not printed then: the identity): the
    order in which consecutive rows (blocks) walk the group's outer dims,
    outermost first, as a permutation of them: with `[0, 2, 1]` over outer
    dims (b, h, s) the rows run b, then s, then h fastest, so that an
    operand broadcast over h (an attention mask) is reused by the blocks
    of every head while it is in L2. Not with `interleaved`,
    `persistent_clusters` or `column_partials`.
    `after_last_block` (default false): the group has one row, which one
    block of the previous group's `threads` reduces in the last block of
    that group's kernel to arrive (`memopt.last_arrival`), in place of a
    launch of its own: a split reduction's second stage, which reads the
    partials that kernel wrote. The previous group is a row group of its
    own launch (no cluster, column partials or persistent clusters), only
    allocations, views and constants between them.
  }];
  let parameters = (ins
    "int64_t":$vector,
    "bool":$shifted,
    "int64_t":$threads,
    "int64_t":$chunks,
    "int64_t":$cluster,
    "int64_t":$shared_chunks,
    "int64_t":$blocks_per_multiprocessor,
    "int64_t":$persistent_clusters,
    "bool":$online_softmax,
    DefaultValuedParameter<"int64_t", "1">:$rows_per_block,
    DefaultValuedParameter<"bool", "false">:$interleaved,
    DefaultValuedParameter<"int64_t", "0">:$column_partials,
    DefaultValuedParameter<"bool", "false">:$shared_accumulators,
    DefaultValuedParameter<"int64_t", "0">:$prefetch_rows,
    OptionalParameter<"::mlir::DenseI64ArrayAttr">:$block_order,
    DefaultValuedParameter<"bool", "false">:$after_last_block);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Memopt_StreamedRowStrategyAttr
    : Memopt_Attr<"StreamedRowStrategy", "streamed_row"> {
  let summary = "a row kernel that streams its row in tiles";
  let description = [{
    One block of `threads` threads per row walks the row in `tiles` tiles of
    one `vector`-element chunk per thread, once per pass of reductions and
    once for the row-shaped results. Reductions that read none of one
    another's results share a pass. `online_softmax` (default false, not
    printed then): a maximum and the sum of exp(v - max) after it share one
    pass too, each thread rescaling its running sum by exp(m - m') when its
    running maximum grows from m to m', and its sum by exp(m - M) to the
    row's maximum M at the end (log-sum-exp over vocabulary rows reads its
    logits once). The launch reserves `reserved_shared_bytes` of dynamic
    shared memory (one row in flight per multiprocessor where later walks
    re-read the row from L2, two where one walk does it all), which
    memopt-pipeline-loads fills with its rings. `shifted` (default false,
    not printed then; groups that write row scalars only): rows whose
    length is not a multiple of `vector`, their chunks aligned to the
    buffers (chunk k covers row elements [k * vector - h, +vector), h the
    row start's offset from alignment). The tiles then walk chunks 1 to
    tiles * threads, whole for every h, unmasked; one more step after them
    takes, per thread, a chunk of the rest and (thread 0) chunk 0, lanes
    outside the row masked.
    `cluster` above 1 (default 1, not printed then; not with `shifted`):
    each row is split over a thread-block cluster of that many blocks,
    block r of a row's cluster walking its slice r, chunks
    [r * tiles * threads, (r + 1) * tiles * threads) of the row (the last
    slice masked at the row's end), and the blocks combine each pass's
    totals through distributed shared memory before the next: rows too few
    to give every multiprocessor a block (decode-time log-sum-exp, a
    normalization over a few long rows) keep the whole GPU streaming.
  }];
  let parameters = (ins
    "int64_t":$vector,
    "int64_t":$threads,
    "int64_t":$tiles,
    "int64_t":$reserved_shared_bytes,
    DefaultValuedParameter<"bool", "false">:$online_softmax,
    DefaultValuedParameter<"bool", "false">:$shifted,
    DefaultValuedParameter<"int64_t", "1">:$cluster);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Memopt_ElementwiseLayout : I32EnumAttr<"ElementwiseLayout",
    "how an elementwise kernel maps chunks to threads", [
      I32EnumAttrCase<"Rows", 0, "rows">,
      I32EnumAttrCase<"ShiftedRows", 1, "shifted_rows">,
      I32EnumAttrCase<"Flat", 2, "flat">]> {
  let cppNamespace = "::mlir::memopt";
  let genSpecializedAttr = 0;
}

def Memopt_ElementwiseStrategyAttr
    : Memopt_Attr<"ElementwiseStrategy", "elementwise"> {
  let summary = "a vectorized elementwise kernel";
  let description = [{
    One thread per chunk of `vector` consecutive elements, blocks of
    `threads`. `layout = rows`: chunks within each row (the row length a
    multiple of `vector`); `shifted_rows`: row chunks shifted to the
    buffers' alignment, partial chunks masked; `flat`: the whole space as
    one array (every buffer row-shaped), the last chunk masked.
    `windowed` (rows layout only): operands read through an affine function
    of the inner loop other than the loop itself (records' fields at
    `(e floordiv K) * K + c`, per-record tables at `e floordiv K`) are
    loaded as one aligned window per chunk, at most the target's vector
    bytes wide, and their lanes picked from it in registers; without it such
    operands are read lane by lane. Printed only when set.
    `block_order` (rows and shifted_rows layouts; default empty, the
    identity): the order in which consecutive rows walk the outer dims,
    outermost first, as on #memopt.row.
    `chunks` (rows and flat layouts; default 1, printed only when set): the
    chunks each thread computes. Block b covers `threads * chunks`
    consecutive chunks, chunk j of its threads the j-th slab of `threads`
    (each slab coalesced); every chunk's loads are issued before any of
    its stores, so a thread has `chunks` times the bytes in flight. The
    grid's last block repeats the last chunk for the chunks past the end
    (idempotent stores), which groups that update a buffer in place
    cannot do: for them the chunks must divide evenly.
  }];
  let parameters = (ins
    EnumParameter<Memopt_ElementwiseLayout>:$layout,
    "int64_t":$vector,
    "int64_t":$threads,
    DefaultValuedParameter<"bool", "false">:$windowed,
    OptionalParameter<"::mlir::DenseI64ArrayAttr">:$block_order,
    DefaultValuedParameter<"int64_t", "1">:$chunks);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Memopt_TileTransposeStrategyAttr
    : Memopt_Attr<"TileTransposeStrategy", "tile_transpose"> {
  let summary = "a transpose staged through a shared-memory tile";
  let description = [{
    Op number `transpose` of the group is the transposing op; the ops
    before it run while the tile is loaded (the prologue), the ops after it
    while it is stored (the epilogue). Tiles of `tile` x `tile` elements,
    blocks of `tile` x `tile_rows` threads.
  }];
  let parameters = (ins
    "int64_t":$transpose,
    "int64_t":$tile,
    "int64_t":$tile_rows);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Memopt_ColumnReduceForm : I32EnumAttr<"ColumnReduceForm",
    "how a column reduction splits its rows", [
      I32EnumAttrCase<"WholeColumn", 0, "whole_column">,
      I32EnumAttrCase<"RowSlices", 1, "row_slices">,
      I32EnumAttrCase<"SplitRows", 2, "split_rows">]> {
  let cppNamespace = "::mlir::memopt";
  let genSpecializedAttr = 0;
}

def Memopt_ColumnReduceStrategyAttr
    : Memopt_Attr<"ColumnReduceStrategy", "column_reduce"> {
  let summary = "a reduction over one loop with parallel loops inside it";
  let description = [{
    An op of loops [outer parallel..., reduced, inner parallel...] (a
    column reduction when there is no outer loop), its output indexed by
    the parallel loops in order; or several such ops over the same loops
    (sibling reductions of the same inputs: a sum and a sum of squares),
    which then share every load and one pass over the inputs, each seeded
    by its own fill or its output's old value. Threads own chunks of `vector` consecutive
    inner points (one batch of outer points per group of blocks) and walk
    the reduced loop. `whole_column`: each block of `threads` threads owns
    `column_threads` chunks over the whole reduced loop and stores each
    output once (a fill of the output just before, when it is in the group,
    seeds the result: `seed_from_fill`). `split_rows`: the reduced loop is
    split into slices of `rows_per_block`; each block stores its partials
    in a workspace [slices, outputs] and a second kernel combines them in
    slice order and seeds them (deterministic, no atomics).
    `row_slices` (2-D and one op only, never selected: pin it to ask for
    atomics):
    blocks own slices of `rows_per_block` rows and combine their partials
    with atomics into the initialized output. All load `unroll` rows per
    loop iteration. `shifted` (whole columns and split rows; printed only
    when set): the inner points are not a multiple of `vector`, so rows
    start at every alignment; each thread loads the two `vector`-aligned
    chunks its chunk of the row straddles and takes its lanes from them at
    the row's offset (16-byte accesses on any row length), the last row
    lane by lane. `last_block` (split rows only; printed only when set): no
    second kernel; each block counts its arrival on a counter of its column
    block (a zero-initialized global the last block resets) and the last
    block to arrive combines the slices' partials in slice order, seeds and
    stores them (the same order and results as the second kernel).
  }];
  let parameters = (ins
    EnumParameter<Memopt_ColumnReduceForm>:$form,
    "int64_t":$vector,
    "int64_t":$threads,
    "int64_t":$column_threads,
    "int64_t":$rows_per_block,
    "int64_t":$unroll,
    "bool":$seed_from_fill,
    DefaultValuedParameter<"bool", "false">:$shifted,
    DefaultValuedParameter<"bool", "false">:$last_block);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Memopt_NaiveStrategyAttr : Memopt_Attr<"NaiveStrategy", "naive"> {
  let summary = "one naive kernel per op, and why no fused form applies";
  let description = [{
    Each op of the group becomes one kernel of one thread per point of its
    parallel iteration space, in blocks of up to `threads`. `reason` says
    why no fused strategy applies (empty for the baseline pipeline).
  }];
  let parameters = (ins "int64_t":$threads,
                        StringRefParameter<"why">:$reason);
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif // MEMOPT_DIALECT_MEMOPTATTRS_TD
