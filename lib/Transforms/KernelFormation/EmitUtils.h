//===- EmitUtils.h - builders shared by kernel strategies ---*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to kernel formation: what every strategy family's emitter
// builds with. The per-thread state of a kernel (lanes, chunks, the values
// held for each buffer), the body evaluator (emitOp: loads, the op's
// body per lane, thread-local reductions), result stores, warp/block/
// cluster reductions, chunk passes, cp.async staging and launch creation.
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_LIB_TRANSFORMS_KERNELFORMATION_EMITUTILS_H
#define MEMOPT_LIB_TRANSFORMS_KERNELFORMATION_EMITUTILS_H

#include "Grouping.h"
#include "KernelUtils.h"

#include <tuple>

namespace mlir::memopt::kf {

/// An index constant.
Value cIdx(OpBuilder &b, Location loc, int64_t v);

struct RowReplicas;

/// Per-thread state while emitting a row or elementwise kernel.
struct EmitState {
  explicit EmitState(Location loc) : loc(loc) {}
  Location loc;
  /// Outer loop ids of this thread's row.
  SmallVector<Value> outerIds;
  /// Inner index of the first element of each chunk.
  SmallVector<Value> chunkBase;
  /// Whether each chunk lies inside the row (null = always).
  SmallVector<Value> chunkValid;
  unsigned vec = 1;
  /// Widest windowed read (bytes; the target's vector bytes where the
  /// strategy reads fields and tables through windows, 0: lane by lane).
  unsigned windowBytes = 0;
  /// Shifted chunks (rows whose length is not a multiple of `vec`): chunk
  /// boundaries follow the buffer's `vec`-element alignment, so a row's
  /// first and last chunks are partial. Then, per chunk, the flat element
  /// index of its aligned start in row-shaped buffers and whether all its
  /// lanes lie in the row, and per lane whether it does.
  bool shifted = false;
  SmallVector<Value> chunkFlat;
  SmallVector<Value> chunkFull;
  /// Whether the chunk's aligned vector lies inside the row-shaped buffers
  /// (null = always).
  SmallVector<Value> chunkInBuffer;
  SmallVector<Value> laneValid;
  /// Row-shaped buffers seen as one dimension (for the aligned accesses).
  DenseMap<Value, Value> flatViews;
  /// Shape of the row space (outer dims, inner) a row-shaped buffer has.
  SmallVector<int64_t> rowShape;
  /// Start of the kernel body, where flat views are created.
  Block *kernelEntry = nullptr;
  /// Shifted mode, partial chunk: row-shaped buffers are accessed lane by
  /// lane through their flat view too (no vector may reach past the end).
  bool forceLanes = false;
  /// Current per-lane values of row-vector buffers: [chunk * vec + lane].
  DenseMap<Value, SmallVector<Value>> vecValues;
  /// Current value of row-scalar buffers.
  DenseMap<Value, Value> scalarValues;
  /// Loads of external buffers already emitted, by (memref, map, role): a
  /// second use (x in RMSNorm's reduction and its epilogue) reuses the
  /// registers instead of reading memory again. External buffers are never
  /// written by the group, so the cached values stay valid.
  DenseMap<std::tuple<Value, AffineMap, int>, SmallVector<Value>> loadCache;
  /// Passes over the chunks of a block's slice held in shared memory: the
  /// staged inputs' [chunks][threads][vec] views by (operand, map), and the
  /// staged chunk being read (null outside such passes).
  DenseMap<std::pair<Value, AffineMap>, Value> stagedViews;
  Value stagedChunk, stagedTid;
  /// Column reductions (column partials): each one's accumulators, one per
  /// lane ([chunk * vec + lane]), updated by emitOp; or, with
  /// `columnShared` (a [rows per block][column reductions][inner] workgroup
  /// buffer), their slots there: this thread's row of the block
  /// `columnSlot` and each reduction's index.
  DenseMap<Operation *, SmallVector<Value>> columnAcc;
  Value columnShared, columnSlot;
  DenseMap<Operation *, unsigned> columnIndex;
  /// Interleaved rows held several to a thread (see RowReplicas): this
  /// state's row among them, and what they share (null: one row).
  unsigned replica = 0;
  RowReplicas *replicas = nullptr;
};

/// Interleaved rows held `count` to a thread: rows first + r, r < count, of
/// one block, `first` a multiple of `count` and the rows differing in the
/// last outer dim alone (its extent a multiple of `count`), each with its
/// own EmitState. Their loads are shared: an access whose element does not
/// depend on the row is loaded once for all of them, one along the rows'
/// contiguous dim is one `count`-element vector whose lane r is row r's
/// (see getAcrossRowsAccess).
struct RowReplicas {
  unsigned count = 1;
  /// Each replica's lanes, by (memref, map, role) as EmitState::loadCache.
  DenseMap<std::tuple<Value, AffineMap, int>, SmallVector<SmallVector<Value>>>
      loads;
};

/// How the rows of a RowReplicas see an access of `v` through `map` by an
/// op of `numLoops` loops (outer loops, then the inner one): the same
/// element for every row (`map` does not read the last outer loop), one
/// aligned `count`-element vector across the rows (`dim`: the dim the last
/// outer loop alone indexes, stride 1, every other stride and the offset
/// multiples of `count`), or element by element.
struct AcrossRowsAccess {
  enum Kind { Same, Vector, Scalar } kind = Scalar;
  unsigned dim = 0;
};
AcrossRowsAccess getAcrossRowsAccess(Value v, AffineMap map,
                                     unsigned numLoops, int64_t count);

/// Which results storeResults stores.
enum class StoreKind { All, RowVectors, RowScalars };

/// A row split over the blocks of a thread-block cluster: each block holds
/// its slice of the row in registers and the blocks combine their totals
/// through distributed shared memory.
struct RowCluster {
  int64_t size = 1;
  /// This block's rank in the cluster.
  Value rank;
  /// Workgroup buffer [reductions] of exchange type: each block's total of
  /// each reduction, read by every block of the cluster. Persistent
  /// clusters (several rows each) alternate between two such buffers,
  /// [2][reductions], indexed by `parity`: a block publishing row k + 1's
  /// totals cannot overwrite row k's before every block has passed row
  /// k + 1's cluster barrier, after its reads of row k's.
  Value totals;
  Value parity;
  /// Interleaved rows: the block's row of this thread, whose totals are
  /// [reductions][rows] (null otherwise).
  Value row;
  /// The index of reduction `slot`'s total (of interleaved row
  /// `row` + `rowOffset`).
  SmallVector<Value> at(OpBuilder &b, Location loc, unsigned slot,
                        int64_t rowOffset = 0) const;
};

/// One block total published to the cluster: reduction `slot`'s, of
/// interleaved row RowCluster::row + `rowOffset`.
struct ClusterTotal {
  unsigned slot;
  Value value;
  int64_t rowOffset = 0;
};

/// The elementwise ops of a row group so far, each with the row scalars as
/// they were at its position.
using VectorOpList =
    SmallVector<std::pair<const GroupOp *, DenseMap<Value, Value>>>;

/// An input of a persistent row kernel whose slice of the next row is
/// copied into shared memory ahead of its use: operand `memref` read through
/// `map`, staged at byte `offset` of dynamic shared memory as
/// [chunks][threads][vec] elements (`view`).
struct StagedInput {
  Value memref;
  AffineMap map;
  Type elementType;
  int64_t offset = 0;
  Value view;
};

/// Whether `v`, accessed through `map`, is laid out like the row space:
/// identity layout, shape (outer dims..., inner), indexed by the loops in
/// order, so that element (row, j) sits at flat index row * inner + j.
bool isRowShaped(Value v, AffineMap map, const EmitState &st);

/// A static memref `v` seen as one dimension (`v` itself when it has one
/// and an identity layout): its elements in memory order, element (i...)
/// of `v` at getFlatIndex (for a strided layout, the span from its offset).
Value createFlatView(OpBuilder &b, Location loc, Value v);

/// The index in createFlatView's view of element `idx` of a memref of type
/// `t` (sum of idx_k * stride_k).
Value getFlatIndex(OpBuilder &b, Location loc, MemRefType t, ValueRange idx);

/// `v` seen as one dimension (created once, at the first use, at the
/// kernel's entry).
Value getFlatView(OpBuilder &b, EmitState &st, Value v);

/// `vec` consecutive elements of `memref` starting at `idx`: one aligned
/// vector load (the caller proved `vec`-element alignment) split into
/// lanes, or a scalar load when `vec` is 1.
SmallVector<Value> loadLanes(OpBuilder &b, Location loc, Value memref,
                             ValueRange idx, unsigned vec);

/// Loads operand `operand` of `op` for every lane of every chunk (vector
/// role) or once (scalar role); returns per-lane values (size 1 for scalar).
SmallVector<Value> loadOperand(OpBuilder &b, EmitState &st,
                               linalg::GenericOp op, OpOperand &operand,
                               RowRole role, unsigned numChunks);

SmallVector<Value> loadOperandUncached(OpBuilder &b, EmitState &st,
                                       linalg::GenericOp op, OpOperand &operand,
                                       RowRole role, unsigned numChunks);

/// Emits `g` for this thread, updating the state; reductions return the
/// thread-local partial in `partial`.
void emitOp(OpBuilder &b, EmitState &st, const GroupOp &g, unsigned numChunks,
            Value &partial);

/// The lanes of a chunk (`vec` lanes from a multiple of `vec` along the
/// inner loop) reading `memref` through `map` where its last result is not
/// the inner loop itself but an affine function of it (a field of
/// interleaved records, (e floordiv K) * K + c; a per-record table,
/// e floordiv K): lane l reads element `lane[l]` of one aligned window of
/// `width` elements whose first element `baseMap` gives at the chunk's
/// first lane.
struct LaneWindow {
  unsigned width = 0;
  SmallVector<int64_t> lane;
  AffineMap baseMap;
};

/// The window of `map`'s reads at `vec` lanes, if one aligned window of at
/// most `vec` elements holds them and `memref` keeps windows aligned (its
/// strides and offset multiples of the width). The window is the widest
/// aligned one of at most `maxWidth` elements within the chunk's own span.
std::optional<LaneWindow> getLaneWindow(Value memref, AffineMap map,
                                        unsigned inner, unsigned vec,
                                        unsigned maxWidth);

/// Memref operands of `g` read or written through a function of its inner
/// loop, each with whether it walks that loop contiguously (its last index
/// is the inner loop itself). None for ops computing a row's scalars.
SmallVector<std::pair<OpOperand *, bool>> getRowAccesses(const GroupOp &g);

/// Widest vector width (elements) such that every row-vector access of the
/// group is aligned and the inner size is a multiple of it. With `windows`,
/// reads through affine functions of the inner loop that one aligned window
/// per chunk serves (records' fields, per-record tables) count by their
/// window's bytes, and each access stays within the target's vector bytes.
unsigned chooseVectorWidth(const Group &group, const KernelTargetInfo &target,
                           bool rowsMayBeMisaligned = false,
                           bool windows = false);

/// The widest element, in bytes, of the buffers the group reads or writes
/// along the row (row scalars, such as f32 statistics beside bf16 rows, and
/// buffers private to the group, whose lanes stay in registers, do not
/// count).
int64_t getWidestRowElementBytes(const Group &group);

/// chooseVectorWidth for kernels that hold no lanes across chunks (streamed
/// rows): the width follows the widest element accessed along the row
/// alone.
unsigned chooseRowAccessVectorWidth(const Group &group,
                                    const KernelTargetInfo &target,
                                    bool rowsMayBeMisaligned = false);

/// Whether the group reads some buffer through such a window.
bool hasWindowAccesses(const Group &group);

/// Whether every access of the group at `vec` lanes fits the target's
/// vector bytes (contiguous ones vec elements, windows their width), each
/// window aligned; `why` says which does not.
bool fitsWindowedAccesses(const Group &group, const KernelTargetInfo &target,
                          unsigned vec, std::string &why);

/// Stores the group's externally visible results for this thread.
void storeResults(OpBuilder &b, EmitState &st, const Group &group,
                  unsigned numChunks, Value isRowLeader,
                  StoreKind kind = StoreKind::All);

/// Type in which partials of `t` travel between threads (shuffles and the
/// shared-memory exchange are 32-bit).
Type exchangeType(Type t);

/// `v` as the element of an exchange buffer of `elt` (an i32 partial in an
/// f32 buffer is bitcast: a group reduces floats and indices side by side),
/// and back.
Value toExchange(OpBuilder &b, Location loc, Value v, Type elt);
Value fromExchange(OpBuilder &b, Location loc, Value v, Type t);

/// Publishes this block's totals (thread 0, or lane 0 of each interleaved
/// row, stores each value in its slot of
/// the cluster's totals buffer), waits at a cluster barrier, and returns for
/// each value every block's, in rank order.
SmallVector<SmallVector<Value>>
exchangeTotals(OpBuilder &b, Location loc, Value tid, const RowCluster &cluster,
               ArrayRef<ClusterTotal> totals);

/// `values` combined left to right (a deterministic order).
Value reduceInOrder(OpBuilder &b, Location loc, arith::AtomicRMWKind kind,
                    ArrayRef<Value> values);

/// Combines the block totals `total` of reduction `slot` across the
/// cluster, in rank order (so that every block computes the same bits).
Value clusterReduce(OpBuilder &b, Location loc, Value total,
                    arith::AtomicRMWKind kind, Value tid,
                    const RowCluster &cluster, unsigned slot);

/// Combines `partial` across the CTA (and the cluster, if any); every
/// thread gets the result.
Value blockReduce(OpBuilder &b, Location loc, Value partial,
                  arith::AtomicRMWKind kind, unsigned threads,
                  unsigned warpSize, Value tid, Value smem, unsigned slot,
                  const RowCluster *cluster = nullptr);

/// Combines each of `partials` (reductions `kinds`) across the CTA as
/// blockReduce does, through slots firstSlot.. of `smem`, their shuffle
/// trees side by side and one barrier for all: independent reductions of
/// a row (LayerNorm backward's two sums) wait once. Every thread gets the
/// same bits blockReduce would give it. Partials narrower than their
/// exchange type (f16, bf16) are combined widened and, with `roundBack`,
/// rounded back.
SmallVector<Value> blockReduceMany(OpBuilder &b, Location loc,
                                   ArrayRef<Value> partials,
                                   ArrayRef<arith::AtomicRMWKind> kinds,
                                   unsigned threads, unsigned warpSize,
                                   Value tid, Value smem, unsigned firstSlot,
                                   bool roundBack = true);

/// The lanes (threads of one row) a warp holds of every row it holds in
/// an interleaved row block of `quads` threads across the rows: warpSize /
/// quads where quads divides the warp, else 1 (a warp's lanes are then not
/// those of whole rows).
int64_t getInterleavedLanesPerWarp(int64_t quads, unsigned warpSize);

/// Combines the partials of the `partials.size()` rows a thread holds
/// over the `lanes` threads of each row of an interleaved row block
/// (RowReplicas: rows rowInBlock + r of the block, `quads` = rowsPerBlock /
/// that count threads across the block's rows, thread lane * quads +
/// rowInBlock / count): each row's partials are combined first within
/// the warp (shuffles between the lanes holding it), then across the warps
/// in warp order through `smem` [slots][lanes / getInterleavedLanesPerWarp]
/// [rowsPerBlock] (none with one warp), then over the cluster in rank
/// order (`cluster.row` is rowInBlock); every thread of a row gets the
/// same bits.
SmallVector<Value> interleavedRowReduce(
    OpBuilder &b, Location loc, ArrayRef<Value> partials,
    arith::AtomicRMWKind kind, int64_t lanes, Value lane, Value rowInBlock,
    int64_t quads, unsigned warpSize, Value smem, unsigned slot,
    const RowCluster &cluster);

/// storeResults for the replicas `sts` of one thread's rows (RowReplicas):
/// a row-shaped result laid out along the rows' contiguous dim is one
/// vector store across them per chunk, row scalars are stored row by row
/// by `isRowLeader` (storeResults itself for one row a thread).
void storeInterleavedResults(OpBuilder &b, MutableArrayRef<EmitState> sts,
                             const Group &group, unsigned numChunks,
                             Value isRowLeader);

/// Shifted chunks for row `row` (the row space's flat row index): row r
/// starts at flat element r * inner, h = that mod vec elements past an
/// aligned boundary; chunk k covers flat elements [r * inner - h + k * vec,
/// +vec), i.e. row elements [k * vec - h, +vec). `mayPassRow`: some chunks
/// lie wholly past the row (they then read the row's first chunk).
/// `whole`: the chunks are known to lie wholly in the row at every h (no
/// masks). Replaces the chunk state of `st`.
void setupShiftedChunks(OpBuilder &b, EmitState &st, Value row,
                        ArrayRef<Value> chunks, int64_t inner, int64_t rows,
                        bool mayPassRow, bool whole = false);

/// Per-thread state of a one-row-per-block kernel: block x is the row.
void initRowState(OpBuilder &b, EmitState &st, gpu::LaunchOp launch,
                  const Group &group, unsigned vec, Value row = Value());

/// The shared-memory buffer of a row group's block reductions (one slot of
/// `warpSize` partials per reduction), or failure when the reductions do
/// not share one exchange type.
FailureOr<MemRefType> getExchangeType(OpBuilder &b, const Group &group,
                                      const KernelTargetInfo &target,
                                      std::string &why);

/// The initial value of reduction `g` for this row: its output's current
/// row value, or the output buffer's element.
Value getReductionInit(OpBuilder &b, EmitState &st, const GroupOp &g);

/// Combines the row's total of reduction `g` with the output's initial
/// value: the row result becomes a scalar value.
void setReductionResult(OpBuilder &b, EmitState &st, const GroupOp &g,
                        Value total);

/// Combines the thread partial of reduction `g` across the CTA and with the
/// output's initial value; the row result becomes a scalar value.
void finishReduction(OpBuilder &b, EmitState &st, const GroupOp &g,
                     Value partial, unsigned threads,
                     const KernelTargetInfo &target, Value tid, Value smem,
                     unsigned slot, const RowCluster *cluster = nullptr);

/// A buffer the group read from memory (a reduction's initial value) and
/// now overwrites: every thread of the row must have read it first.
bool overwritesItsInput(const Group &group);

/// One pass over `count` chunks per thread, one at a time: `setChunk(iv)`
/// points the state at the chunk, the elementwise ops are replayed for it,
/// then reduction `reduce` accumulates (the pass returns the thread
/// partial) or the row-shaped results are stored. Values of the pass stay
/// inside its loop.
Value emitChunkPass(OpBuilder &b, EmitState &st, const Group &group,
                    const VectorOpList &vectorOps, const GroupOp *reduce,
                    int64_t count, function_ref<void(Value)> setChunk);

/// Static shared bytes of a row kernel's block: the warp partials of its
/// reductions (`exchange`, when the block has more than one warp) and
/// `totalsCopies` rows of their totals.
int64_t blockStaticBytes(MemRefType exchange, bool warpPartials,
                         int64_t totalsCopies);

/// The inputs of a row group read along the row (not a weight shared by
/// every row) whose `numChunks` chunks per thread fit, one after another,
/// in a block's share of shared memory (`stagingBytes` in all; `tooBig`
/// when some did not fit).
SmallVector<StagedInput>
selectStagedInputs(const Group &group, const KernelTargetInfo &target,
                   int64_t numChunks, int64_t threads, unsigned vec,
                   int64_t blocksPerMultiprocessor, int64_t staticBytes,
                   int64_t &stagingBytes, bool &tooBig);

/// Waits until every asynchronous copy this thread issued has landed (an
/// empty group committed, then a wait for no group left in flight).
void waitForOwnCopies(OpBuilder &b, Location loc);

/// Copies this thread's chunks of row `row` of every staged input into its
/// staging buffer (cp.async, zero-filled past nothing: chunks past the row
/// read the row's first chunk, as direct loads do) and commits them as one
/// group.
void emitRowPrefetch(OpBuilder &b, Location loc, const Group &group,
                     ArrayRef<StagedInput> staged, ArrayRef<Value> chunkBase,
                     ArrayRef<Value> chunkValid, Value row, Value tid,
                     unsigned vec);

/// A 1-D launch of `count` work items in blocks of up to `blockSize`
/// threads; `linear` is the item of this thread, and the builder is left
/// inside the guard that drops the threads past `count`.
gpu::LaunchOp createLinearLaunch(OpBuilder &b, Location loc, int64_t count,
                                 int64_t blockSize, Value &linear);

/// Lane `lane` of chunk `c`'s element of column reduction `op`'s
/// accumulators in shared memory (st.columnShared): its indices (a chunk
/// outside the row reads column 0).
SmallVector<Value> getSharedAccumulatorIndex(OpBuilder &b, EmitState &st,
                                             Operation *op, unsigned c,
                                             unsigned lane);

/// Elements (0, `col`) .. (`n` - 1, `col`) of the 2-D `buf` combined in
/// that order, from the identity (a deterministic order across blocks).
Value combineInOrder(OpBuilder &b, Location loc, arith::AtomicRMWKind kind,
                     Value buf, int64_t n, Value col);

/// Evaluates the elementwise `ops` at loop position `ivs` (every op has
/// identity output maps over the same loops): values of buffers written by
/// earlier ops come from `held`, which receives each op's results; results
/// of buffers outside `privates` are stored. Operand `given` (if any) takes
/// `givenValue` instead of a load.
void evalElementwiseChain(OpBuilder &b, Location loc,
                          ArrayRef<linalg::GenericOp> ops, ValueRange ivs,
                          DenseMap<Value, Value> &held,
                          const DenseSet<Value> &privates,
                          OpOperand *given = nullptr,
                          Value givenValue = Value());

} // namespace mlir::memopt::kf

#endif // MEMOPT_LIB_TRANSFORMS_KERNELFORMATION_EMITUTILS_H
