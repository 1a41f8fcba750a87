//===- Strategies.h - kernel strategy families --------------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to kernel formation: one family per file (RowStrategy.cpp,
// StreamedRowStrategy.cpp, ElementwiseStrategy.cpp,
// TileTransposeStrategy.cpp, ColumnReduceStrategy.cpp, NaiveKernel.cpp),
// each with the same three entry points, as nvFuser's schedulers:
//
//   select<Family>Strategy  the decisions, as the family's attribute (or
//                           why the family does not apply);
//   check<Family>Strategy   whether an attribute (selected or pinned by a
//                           user) can be honoured for the group, with a
//                           located error when not; reads the IR only;
//   emit<Family>Kernel      builds exactly what the attribute says, before
//                           the group's last op (the caller erases the ops
//                           and the group's private buffers).
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_LIB_TRANSFORMS_KERNELFORMATION_STRATEGIES_H
#define MEMOPT_LIB_TRANSFORMS_KERNELFORMATION_STRATEGIES_H

#include "Grouping.h"

#include "memopt/Dialect/MemoptDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::memopt::kf {

struct EmitState;

/// An error at `anchor` that strategy `s` cannot be honoured; the caller
/// streams the reason.
InFlightDiagnostic emitCannotHonour(Operation *anchor, Attribute s);

/// Ops that may sit between a kernel group and the one that runs in its
/// kernel's last block (allocations, views, constants): the merge moves
/// them before that kernel.
bool isMovableBeforeKernel(Operation *op);
/// The op before `op` past such ops (a kernel group, a launch, anything
/// else), or null.
Operation *getPreviousPastMovable(Operation *op);

/// Whether `vec` lanes of `elementBytes` bytes are a power of two within
/// the target's widest access.
bool isVectorAllowed(int64_t vec, int64_t elementBytes,
                     const KernelTargetInfo &target);

/// Whether `threads` is whole warps within the target's largest block.
bool isWholeWarps(int64_t threads, const KernelTargetInfo &target);

//===-- Block order (BlockOrder.cpp) --------------------------------------===//

/// The order in which a row or elementwise kernel's blocks walk the outer
/// dims of `group` (#memopt.row's `block_order`), or null for memory
/// order: the order of least modelled DRAM bytes (getRowGridDramBytes, L2
/// reuse within half the target's L2) when it saves at least a sixteenth
/// over memory order. Remarks say which order and why, or that broadcast
/// operands are re-read and no order helps.
DenseI64ArrayAttr selectBlockOrder(const Group &group,
                                   const KernelTargetInfo &target);

/// Whether `order` (null: memory order) is a permutation of `group`'s outer
/// dims, with a located error naming strategy `s` when not.
LogicalResult checkBlockOrder(const Group &group, Attribute s,
                              DenseI64ArrayAttr order, Operation *anchor);

/// The row (linear in memory order over `outer`) that the block at
/// position `row` of `order` holds; `row` itself for memory order.
Value getOrderedRow(OpBuilder &b, Location loc, Value row,
                    ArrayRef<int64_t> outer, DenseI64ArrayAttr order);

//===-- Row kernels (RowStrategy.cpp) -------------------------------------===//

/// How a row kernel with column reductions keeps its column partials.
struct ColumnPartialsPlan {
  /// Blocks walking the rows (0: no column reductions).
  int64_t blocks = 0;
  /// Accumulators in shared memory instead of registers.
  bool shared = false;
  /// Rows whose inputs each block holds ahead of the one it reduces.
  int64_t prefetchRows = 0;
  /// The block: threads per row, chunks per thread, rows per block.
  int64_t threads = 0, chunks = 0, rowsPerBlock = 1;
};

/// The block shape, accumulators' place, rows prefetched and blocks of a
/// row kernel with column reductions (blocks walk the rows and store
/// column partials). Candidates: a block per row of 1 to 8 chunks per
/// thread, or a warp per row and 2 to 32 rows per block; accumulators in
/// registers or shared memory (registers estimated from the lanes held per
/// thread; what is resident at once bounds the blocks); the next row
/// prefetched or not; 1 to that many blocks. Each is timed as the larger
/// of walking a block's rows (the target's row latency each) and
/// streaming the group's bytes plus the workspace at the target's
/// bandwidth, plus half the smaller; the fastest wins, ties to fewer
/// registers per thread. `staticBytesFor` gives a block's other static shared memory for its
/// threads per row. Fails when the accumulators fit neither place.
FailureOr<ColumnPartialsPlan>
planColumnPartials(const Group &group, const KernelTargetInfo &target,
                   int64_t chunksPerRow, int64_t vec,
                   function_ref<int64_t(int64_t)> staticBytesFor,
                   std::string &why);

/// The inputs of `group` read along its rows from memory (indexed by the
/// innermost loop and an outer one; not a weight shared by every row), once
/// per (operand value, map): what column partials prefetch and what their
/// register estimate counts.
SmallVector<std::pair<linalg::GenericOp, OpOperand *>>
getInputsReadAlongRows(const Group &group);

/// The end of a row kernel with column partials: each thread's partials
/// (the loop's values, or its columns of the shared accumulators, a
/// block's rows combined there first) to the workspace after `loop`, the
/// second kernel combining them with each output's initial value after
/// `launch`, and the workspaces' deallocation.
void finishColumnPartials(RewriterBase &b, Location loc, const Group &group,
                          gpu::LaunchOp launch, scf::ForOp loop, EmitState &st,
                          ArrayRef<Value> workspaces, int64_t numChunks,
                          unsigned vec, Value blockId, Value rowSlot,
                          int64_t rowsPerBlock, ArrayRef<Value> prefetchYields,
                          const KernelTargetInfo &target);

/// Bytes of a block's column accumulators in shared memory
/// ([rows_per_block][column reductions][inner]), or -1 when their types
/// differ.
int64_t getSharedAccumulatorBytes(const Group &group, int64_t rowsPerBlock);

/// The row kernel of `group` (which has a reduction): one block or cluster
/// per row, or the streamed kernel when the row is too long for a cluster
/// of the target (a remark says so). Remarks say why optional forms (shared
/// slices, persistent clusters) were not taken. Fails with `why` when the
/// group's reductions cannot share one exchange.
FailureOr<Attribute> selectRowStrategy(const Group &group,
                                       const KernelTargetInfo &target,
                                       std::string &why);
LogicalResult checkRowStrategy(const Group &group, RowStrategyAttr s,
                               const KernelTargetInfo &target,
                               Operation *anchor);
void emitRowKernel(RewriterBase &b, Group &group, RowStrategyAttr s,
                   const KernelTargetInfo &target);

/// What the row and streamed row families both need of a pinned strategy:
/// a reduction over a row, a vector within the target's widest access (and
/// dividing the row unless `shifted`; `unalignedHint` ends that error),
/// whole warps, reductions sharing one exchange. Returns the exchange
/// buffer's type, or failure after an error at `anchor`.
FailureOr<MemRefType> checkRowBasics(const Group &group, Attribute s,
                                     int64_t vec, bool shifted, int64_t threads,
                                     StringRef unalignedHint,
                                     const KernelTargetInfo &target,
                                     Operation *anchor);

/// Row elements covered by the chunks of a row: a row of `inner` elements
/// in `vec`-element chunks, shifted to the buffers' alignment or not.
int64_t getChunksPerRow(int64_t inner, int64_t vec, bool shifted);

//===-- Interleaved rows (InterleavedRows.cpp) ----------------------------===//

/// A row kernel whose rows lie side by side (#memopt.row, interleaved):
/// `rowsPerBlock` rows per block, `threads` threads per row holding
/// `chunks` elements each of `rowsPerThread` adjacent rows, rows split over
/// clusters of `cluster` blocks.
struct InterleavedRowPlan {
  int64_t rowsPerBlock = 1, threads = 1, chunks = 1, cluster = 1,
          blocksPerMultiprocessor = 1, rowsPerThread = 1;
};

/// The interleaved plan of `rows` rows of `rowLength` elements held on
/// chip (registers, split over a cluster when one block's do not hold a
/// row), each thread holding `rowsPerThread` adjacent rows, or failure with
/// `why` (a row longer than the largest cluster holds).
FailureOr<InterleavedRowPlan>
planInterleavedRows(int64_t rowLength, int64_t rows,
                    const KernelTargetInfo &target, std::string &why,
                    int64_t rowsPerThread = 1);

/// The most adjacent rows (a power of two) one thread of an interleaved
/// row kernel can hold with every access along the rows one aligned vector
/// across them of at most the target's vector bytes (getAcrossRowsAccess),
/// or 1 with `why`.
int64_t chooseRowsPerThread(const Group &group, const KernelTargetInfo &target,
                            std::string &why);

/// Whether the buffers `group` reads or writes along its rows (those it
/// allocates for itself aside) are all strided along the row and contiguous
/// across consecutive rows, and there is at least one: the layout of a
/// normalization over a non-innermost dim, interchanged.
bool isLaidOutAcrossRows(const Group &group);

/// The interleaved row strategy of `group` (see isLaidOutAcrossRows), or
/// failure with `why`.
FailureOr<Attribute> selectInterleavedRowStrategy(
    const Group &group, const KernelTargetInfo &target, std::string &why);

//===-- Streamed row kernels (StreamedRowStrategy.cpp) --------------------===//

struct StreamedPasses;
/// `passes`: the group's planStreamedPasses(online = true), when the
/// caller has it. `cluster` above 1: each row split over that many blocks
/// (no shifted chunks then).
StreamedRowStrategyAttr
selectStreamedRowStrategy(const Group &group, const KernelTargetInfo &target,
                          const StreamedPasses *passes = nullptr,
                          int64_t cluster = 1);
/// Rows that the row-on-chip form's clusters (`clusterBlocks` blocks in
/// all, `slots` of them resident at once) run in two waves, each block
/// loading its whole slice before it reduces: the streamed form
/// over clusters of as few blocks as fill the multiprocessors, when the
/// rows in flight fit in L2 for the walks that re-read them. Failure with
/// `why` otherwise.
FailureOr<StreamedRowStrategyAttr>
selectFewRowsStreamedStrategy(const Group &group,
                              const KernelTargetInfo &target,
                              int64_t clusterBlocks, int64_t slots,
                              std::string &why);
LogicalResult checkStreamedRowStrategy(const Group &group,
                                       StreamedRowStrategyAttr s,
                                       const KernelTargetInfo &target,
                                       Operation *anchor);
void emitStreamedRowKernel(RewriterBase &b, Group &group,
                           StreamedRowStrategyAttr s,
                           const KernelTargetInfo &target);

//===-- Elementwise kernels (ElementwiseStrategy.cpp) ---------------------===//

/// Fails with `why` when threads of several blocks would update one
/// per-row value in place.
FailureOr<ElementwiseStrategyAttr>
selectElementwiseStrategy(const Group &group, const KernelTargetInfo &target,
                          std::string &why);
LogicalResult checkElementwiseStrategy(const Group &group,
                                       ElementwiseStrategyAttr s,
                                       const KernelTargetInfo &target,
                                       Operation *anchor);
void emitElementwiseKernel(RewriterBase &b, Group &group,
                           ElementwiseStrategyAttr s,
                           const KernelTargetInfo &target);

//===-- Tiled transposes (TileTransposeStrategy.cpp) ----------------------===//

TileTransposeStrategyAttr
selectTileTransposeStrategy(const TileFusion &fusion, unsigned transpose,
                            const KernelTargetInfo &target);
LogicalResult checkTileTransposeStrategy(const TileFusion &fusion,
                                         TileTransposeStrategyAttr s,
                                         const KernelTargetInfo &target,
                                         Operation *anchor);
void emitTileTransposeKernel(RewriterBase &b, const TileFusion &fusion,
                             TileTransposeStrategyAttr s,
                             const DenseSet<Value> &privates);

//===-- Column reductions (ColumnReduceStrategy.cpp) ----------------------===//

/// A column group's ops: the sibling reductions (each of loops [outer
/// parallel..., reduced, inner parallel...], all over the same loops), the
/// fills of their outputs among them (each before the reduction it seeds),
/// and the elementwise epilogue over the outputs after them.
struct ColumnGroupOps {
  SmallVector<linalg::GenericOp> fills, ops;
  ArrayRef<linalg::GenericOp> epilogue;
  /// The fill of `op`'s output in the group, or null.
  linalg::GenericOp getFillOf(linalg::GenericOp op) const;
};
/// Splits a group's ops: fills and reductions up to the last reduction,
/// then the epilogue.
ColumnGroupOps splitColumnGroup(ArrayRef<linalg::GenericOp> ops);

FailureOr<ColumnReduceStrategyAttr>
selectColumnReduceStrategy(const ColumnGroupOps &c,
                           const KernelTargetInfo &target, std::string &why);

/// Whether a fill of `op`'s output just before it belongs in its group:
/// the family applies and seeds its result with the fill.
bool canSeedFromFill(linalg::GenericOp op, const KernelTargetInfo &target);
/// Whether `c`'s reductions can share one kernel (one pass over their
/// inputs): each a column reduction, all over the same loops and
/// accumulating in the same exchange type, distinct outputs that no
/// reduction reads, every fill seeding exactly one later reduction, and
/// (several reductions) only whole buffers, which cannot alias; `why` if
/// not.
bool areColumnSiblings(const ColumnGroupOps &c, const KernelTargetInfo &target,
                       std::string &why);
/// Whether `epilogue` (ops after `reductions` in their group) can run where
/// each output is finished: elementwise over the outputs, reading the
/// results (and earlier epilogue values) at the same point; `why` if not.
bool isColumnEpilogue(ArrayRef<linalg::GenericOp> reductions,
                      ArrayRef<linalg::GenericOp> epilogue, std::string &why);
LogicalResult checkColumnReduceStrategy(const ColumnGroupOps &c,
                                        ColumnReduceStrategyAttr s,
                                        const KernelTargetInfo &target,
                                        Operation *anchor);
/// Returns the buffers only the kernel used (never stored): the caller
/// erases them with the ops.
DenseSet<Value> emitColumnReduceKernel(RewriterBase &b,
                                       const ColumnGroupOps &c,
                                       ColumnReduceStrategyAttr s,
                                       const KernelTargetInfo &target);

//===-- Naive kernels (NaiveKernel.cpp) -----------------------------------===//

LogicalResult checkNaiveStrategy(ArrayRef<linalg::GenericOp> ops,
                                 NaiveStrategyAttr s,
                                 const KernelTargetInfo &target,
                                 Operation *anchor);

} // namespace mlir::memopt::kf

#endif // MEMOPT_LIB_TRANSFORMS_KERNELFORMATION_STRATEGIES_H
