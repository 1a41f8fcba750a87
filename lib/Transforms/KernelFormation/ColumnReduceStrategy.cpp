//===- ColumnReduceStrategy.cpp - reductions with parallel loops inside -===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The column-reduction family (#memopt.column_reduce): an op of loops
// [outer parallel..., reduced, inner parallel...] (a column reduction of a
// matrix, a mean over the middle dim of a 3-D tensor, a sum over the
// channels of NCHW per pixel). Threads own chunks of consecutive inner
// points (coalesced, vectorized along the contiguous dim) and walk the
// reduced loop; the blocks of one outer point form a batch.
//
//   whole_column  each block owns a slice of chunks over the whole reduced
//                 loop; a fill of the output just before, in the same
//                 group, seeds the result.
//   split_rows    when the outputs alone cannot give every multiprocessor
//                 blocks: the reduced loop is cut into slices, each block
//                 stores its partials in a workspace and a second kernel
//                 combines them in slice order (deterministic).
//   row_slices    pinned only (2-D): partials combined with atomics.
//
// Sibling reductions over the same loops (a sum and a sum of squares of
// the same columns, as batch-norm statistics and LayerNorm backward's
// dgamma/dbeta are written) share the kernel: every load once, one set of
// accumulators per reduction, one pass over the inputs.
//
// How many threads of a block share a chunk's reduced loop (row lanes)
// follows from the outputs: enough threads in all to cover the target's
// multiprocessors, never more row lanes than rows.
//
//===----------------------------------------------------------------------===//

#include "EmitUtils.h"
#include "Strategies.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

namespace {
/// What the column-reduction forms share: loops [outer..., reduced,
/// inner...], each reduction's single output indexed by the parallel loops
/// in order.
struct ColumnReduceInfo {
  /// Each reduction's combiner, in group order.
  SmallVector<arith::AtomicRMWKind> kinds;
  SmallVector<int64_t> outer, inner;
  int64_t rows;  // the reduced loop
  int64_t batch; // product of `outer`
  int64_t cols;  // product of `inner`
  unsigned vec;
  int64_t maxBytes;
  /// The vector of the shifted form (> vec when the inner points are not a
  /// multiple of the widest access, every input along them can be read in
  /// aligned chunks, and a row holds two of them), else 0.
  unsigned shiftVec = 0;
  /// The form emitted: shifted (`vec` lanes from two aligned chunks).
  bool shifted = false;
};

/// Elementwise ops over the outputs run where each output is finished, and
/// the buffers that only the kernel uses (not stored).
struct ColumnEpilogue {
  ArrayRef<linalg::GenericOp> ops;
  DenseSet<Value> privates;
};

/// A block's shape in the whole-column and split-rows forms.
struct ColumnConfig {
  int64_t threads, columnThreads, unroll;
};
} // namespace

static std::optional<arith::AtomicRMWKind>
atomicKindFor(arith::AtomicRMWKind k) {
  switch (k) {
  case arith::AtomicRMWKind::addf:
  case arith::AtomicRMWKind::addi:
  case arith::AtomicRMWKind::maximumf:
  case arith::AtomicRMWKind::minimumf:
  case arith::AtomicRMWKind::maxs:
  case arith::AtomicRMWKind::mins:
    return k;
  default:
    return std::nullopt;
  }
}

namespace {
/// How an input of a column reduction is read in the shifted form.
enum class ShiftRole {
  /// Not along both the inner points and the reduced loop (a broadcast
  /// row, an input along the reduced loop only, not a buffer): read as
  /// in every form (broadcast rows lane by lane).
  Unchanged,
  /// Along the inner points and the reduced loop, a buffer of static shape
  /// and identity layout whose trailing dims are the inner points in
  /// order: two aligned chunks per row.
  Shifted,
  /// Along the inner points in a way the shifted form cannot read.
  Unshiftable,
};
} // namespace

static ShiftRole isShiftableInput(linalg::GenericOp op, OpOperand *in,
                                  unsigned red) {
  auto mt = dyn_cast<MemRefType>(in->get().getType());
  unsigned n = op.getNumLoops();
  AffineMap m = op.getMatchingIndexingMap(in);
  if (!mt || !m.isFunctionOfDim(n - 1) || !m.isFunctionOfDim(red))
    return ShiftRole::Unchanged;
  if (!mt.hasStaticShape() || !mt.getLayout().isIdentity())
    return ShiftRole::Unshiftable;
  unsigned inner = n - 1 - red, results = m.getNumResults();
  if (results < inner + 1)
    return ShiftRole::Unshiftable;
  for (unsigned i = 0; i < inner; ++i) {
    auto d = dyn_cast<AffineDimExpr>(m.getResult(results - inner + i));
    if (!d || d.getPosition() != red + 1 + i)
      return ShiftRole::Unshiftable;
  }
  // The other results plain loop dims or constants, the inner dims
  // nowhere among them: then only row rows - 1 can be a buffer's last
  // leading row (the peeled one). A map such as (3 - r) or r floordiv 2
  // would reach the last row earlier, and its second chunk past the end.
  for (unsigned i = 0; i + inner < results; ++i) {
    AffineExpr e = m.getResult(i);
    if (!isa<AffineDimExpr, AffineConstantExpr>(e))
      return ShiftRole::Unshiftable;
    for (unsigned d = red + 1; d < n; ++d)
      if (e.isFunctionOfDim(d))
        return ShiftRole::Unshiftable;
  }
  return ShiftRole::Shifted;
}

static FailureOr<ColumnReduceInfo>
matchOneColumnReduce(linalg::GenericOp op, const KernelTargetInfo &target,
                     std::string &why) {
  auto iters = op.getIteratorTypesArray();
  unsigned n = iters.size();
  SmallVector<unsigned> reduced;
  for (unsigned i = 0; i < n; ++i)
    if (iters[i] == utils::IteratorType::reduction)
      reduced.push_back(i);
  if (reduced.size() != 1 || reduced[0] + 1 == n) {
    why = "not a reduction over one loop with parallel loops inside it";
    return failure();
  }
  unsigned red = reduced[0];
  FailureOr<arith::AtomicRMWKind> kind = matchCombiner(op, why);
  if (failed(kind))
    return failure();
  OpOperand &out = op.getDpsInitsMutable()[0];
  AffineMap outMap = op.getMatchingIndexingMap(&out);
  bool inOrder = outMap.getNumResults() == n - 1;
  for (unsigned i = 0; inOrder && i + 1 < n; ++i) {
    auto d = dyn_cast<AffineDimExpr>(outMap.getResult(i));
    inOrder = d && d.getPosition() == (i < red ? i : i + 1);
  }
  if (!inOrder) {
    why = "output is not indexed by the parallel loops in order";
    return failure();
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, [](int64_t r) { return r <= 0; })) {
    why = "dynamic or empty loop ranges";
    return failure();
  }
  ColumnReduceInfo info{{*kind}, {}, {}, ranges[red], 1, 1, 1, 1};
  for (unsigned i = 0; i < n; ++i) {
    if (i < red)
      info.outer.push_back(ranges[i]);
    else if (i > red)
      info.inner.push_back(ranges[i]);
  }
  for (int64_t s : info.outer)
    info.batch *= s;
  for (int64_t s : info.inner)
    info.cols *= s;
  bool allContiguous = true, anyAlong = false;
  for (OpOperand *in : op.getDpsInputOperands()) {
    auto mt = dyn_cast<MemRefType>(in->get().getType());
    if (!mt)
      continue;
    // Inputs along the inner points (last result the innermost loop) are
    // read a vector at a time; inputs that do not index the innermost loop
    // (p[h, t] in p . V over [h, t, d]) once per row, for every lane.
    AffineMap m = op.getMatchingIndexingMap(in);
    if (!m.isFunctionOfDim(n - 1))
      continue;
    anyAlong = true;
    info.maxBytes =
        std::max(info.maxBytes, getElementBytes(mt.getElementType()));
    if (!isa<AffineDimExpr>(m.getResults().back()) ||
        m.getDimPosition(m.getNumResults() - 1) != n - 1)
      allContiguous = false;
  }
  if (allContiguous && anyAlong) {
    int64_t widest = std::max<int64_t>(1, target.vectorBytes / info.maxBytes);
    info.vec = widest;
    while (info.vec > 1 && info.inner.back() % info.vec != 0)
      info.vec /= 2;
    if (info.vec < widest && info.cols >= 2 * widest && info.rows >= 2 &&
        llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *in) {
          return isShiftableInput(op, in, red) != ShiftRole::Unshiftable;
        }))
      info.shiftVec = widest;
  }
  return info;
}

/// The reductions of `ops` (all over the same loops: areColumnSiblings)
/// as one: the narrowest vector any allows, the widest element read.
static FailureOr<ColumnReduceInfo>
matchColumnReduce(ArrayRef<linalg::GenericOp> ops,
                  const KernelTargetInfo &target, std::string &why) {
  if (ops.empty()) {
    why = "the group has no reduction";
    return failure();
  }
  FailureOr<ColumnReduceInfo> info = matchOneColumnReduce(ops[0], target, why);
  if (failed(info))
    return failure();
  for (linalg::GenericOp op : ops.drop_front()) {
    FailureOr<ColumnReduceInfo> other = matchOneColumnReduce(op, target, why);
    if (failed(other))
      return failure();
    linalg::GenericOp first = ops[0];
    if (op.getStaticLoopRanges() != first.getStaticLoopRanges() ||
        op.getIteratorTypesArray() != first.getIteratorTypesArray()) {
      why = "sibling reductions run over different loops";
      return failure();
    }
    info->kinds.push_back(other->kinds[0]);
    info->vec = std::min(info->vec, other->vec);
    info->shiftVec = std::min(info->shiftVec, other->shiftVec);
    info->maxBytes = std::max(info->maxBytes, other->maxBytes);
  }
  return info;
}

/// The accumulator type of reduction `op`.
static Type getAccType(linalg::GenericOp op) {
  return op.getBody()->getArgument(op.getNumDpsInputs()).getType();
}

/// Chunks of `vec` inner points of one batch.
static int64_t getChunks(const ColumnReduceInfo &info, int64_t vec) {
  return llvm::divideCeil(info.cols, vec);
}

/// The block shape: `columnSliceBytes` contiguous bytes of a row per block
/// (threads side by side, at most a warp and at most one per chunk of the
/// row) and the other threads of a block
/// walking rows, unless the outputs alone give enough threads: then fewer
/// row lanes (a wider slice, then a smaller block), never more than the
/// rows. Unrolled by at most the rows each row lane walks.
static ColumnConfig chooseColumnConfig(const ColumnReduceInfo &info,
                                       const KernelTargetInfo &target) {
  int64_t warp = target.warpSize;
  int64_t chunks = getChunks(info, info.vec);
  int64_t colThreads = 1;
  while (colThreads * info.vec * info.maxBytes <
             (int64_t)target.columnSliceBytes &&
         colThreads < warp)
    colThreads *= 2;
  int64_t threads = target.blockSize;
  // Row lanes worth having: all chunks times row lanes cover
  // maxThreadsPerBlock threads on every multiprocessor.
  int64_t enough = (int64_t)target.multiprocessors * target.maxThreadsPerBlock;
  int64_t wanted = (int64_t)llvm::PowerOf2Ceil(std::clamp<int64_t>(
      llvm::divideCeil(enough, chunks * info.batch), 1, info.rows));
  int64_t widest =
      std::min<int64_t>(warp, (int64_t)llvm::PowerOf2Ceil(chunks));
  // Never more column threads than chunks (a row of one or two 16-byte
  // chunks: the other threads of the slice would idle): the warp's other
  // lanes walk rows instead, still reading consecutive bytes.
  colThreads = std::min(colThreads, widest);
  while (threads / colThreads > wanted && colThreads < widest)
    colThreads *= 2;
  if (threads / colThreads > wanted)
    threads = llvm::alignTo(colThreads * wanted, warp);
  // The first colThreads x vec threads each finish one output.
  threads = std::max<int64_t>(threads,
                              llvm::alignTo(colThreads * info.vec, warp));
  int64_t rowLanes = threads / colThreads;
  int64_t unroll = std::clamp<int64_t>(llvm::divideCeil(info.rows, rowLanes),
                                       1, target.columnUnroll);
  return {threads, colThreads, unroll};
}

bool kf::canSeedFromFill(linalg::GenericOp op, const KernelTargetInfo &target) {
  std::string why;
  FailureOr<ColumnReduceInfo> info = matchOneColumnReduce(op, target, why);
  return succeeded(info) && target.blockSize % target.warpSize == 0;
}

linalg::GenericOp ColumnGroupOps::getFillOf(linalg::GenericOp op) const {
  for (linalg::GenericOp f : fills)
    if (isFillOf(f, op))
      return f;
  return nullptr;
}

ColumnGroupOps kf::splitColumnGroup(ArrayRef<linalg::GenericOp> ops) {
  // Fills and reductions up to the last reduction of that prefix.
  unsigned end = 0;
  for (unsigned i = 0; i < ops.size(); ++i) {
    linalg::GenericOp op = ops[i];
    if (op.getNumReductionLoops() != 0)
      end = i + 1;
    else if (!getFillValue(op))
      break;
  }
  ColumnGroupOps c;
  for (linalg::GenericOp op : ops.take_front(end))
    (op.getNumReductionLoops() != 0 ? c.ops : c.fills).push_back(op);
  // Without a reduction, the first op after the fills stands in for one
  // (the strategies then say why it is not).
  if (c.ops.empty()) {
    while (end < ops.size() && getFillValue(ops[end]))
      c.fills.push_back(ops[end++]);
    if (end < ops.size())
      c.ops.push_back(ops[end++]);
  }
  c.epilogue = ops.drop_front(end);
  return c;
}

bool kf::areColumnSiblings(const ColumnGroupOps &c,
                           const KernelTargetInfo &target, std::string &why) {
  FailureOr<ColumnReduceInfo> info = matchColumnReduce(c.ops, target, why);
  if (failed(info))
    return false;
  Type xType = exchangeType(getAccType(c.ops[0]));
  DenseSet<Value> outputs;
  for (linalg::GenericOp op : c.ops) {
    if (exchangeType(getAccType(op)) != xType) {
      why = "sibling reductions accumulate in different types";
      return false;
    }
    if (!outputs.insert(getRootBuffer(op.getDpsInits()[0])).second) {
      why = "sibling reductions write the same buffer";
      return false;
    }
  }
  if (c.ops.size() > 1) {
    for (linalg::GenericOp op : c.ops) {
      if (!touchesWholeBuffersOnly(op)) {
        why = "sibling reductions touch views that may alias";
        return false;
      }
      Value own = getRootBuffer(op.getDpsInits()[0]);
      for (Value in : op.getDpsInputs())
        if (isa<MemRefType>(in.getType()) &&
            getRootBuffer(in) != own && outputs.contains(getRootBuffer(in))) {
          why = "a reduction reads the output of a sibling reduction";
          return false;
        }
    }
  }
  DenseSet<Operation *> seeded;
  for (linalg::GenericOp f : c.fills) {
    auto it = llvm::find_if(c.ops, [&](auto op) { return isFillOf(f, op); });
    if (it == c.ops.end() || !f->isBeforeInBlock(*it)) {
      why = "a fill in the group seeds none of the reductions after it";
      return false;
    }
    if (!seeded.insert(*it).second) {
      why = "two fills of one reduction's output";
      return false;
    }
  }
  return true;
}

bool kf::isColumnEpilogue(ArrayRef<linalg::GenericOp> reductions,
                          ArrayRef<linalg::GenericOp> epilogue,
                          std::string &why) {
  if (epilogue.empty())
    return true;
  if (reductions.empty()) {
    why = "the group has no reduction";
    return false;
  }
  linalg::GenericOp op = reductions.front();
  SmallVector<int64_t> outShape;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
    if (it == utils::IteratorType::parallel)
      outShape.push_back(ranges[i]);
  // Buffers whose value at an output point the kernel holds.
  DenseSet<Value> held;
  for (linalg::GenericOp r : reductions)
    held.insert(getRootBuffer(r.getDpsInits()[0]));
  bool readsResult = false;
  for (linalg::GenericOp e : epilogue) {
    if (e.getNumReductionLoops() != 0 ||
        e.getStaticLoopRanges() != outShape ||
        llvm::any_of(e.getDpsInitsMutable(), [&](OpOperand &out) {
          return !e.getMatchingIndexingMap(&out).isIdentity();
        })) {
      why = "an epilogue op is not elementwise over the reduction's outputs";
      return false;
    }
    for (OpOperand *in : e.getDpsInputOperands()) {
      if (!isa<MemRefType>(in->get().getType()) ||
          !held.contains(getRootBuffer(in->get())))
        continue;
      if (!e.getMatchingIndexingMap(in).isIdentity()) {
        why = "an epilogue op reads a value of the kernel at another point";
        return false;
      }
      readsResult = true;
    }
    for (Value out : e.getDpsInits())
      held.insert(getRootBuffer(out));
  }
  if (!readsResult) {
    why = "the epilogue does not read a reduction's result";
    return false;
  }
  // Threads store epilogue outputs while other blocks still read the
  // reduction's inputs, and other threads read the epilogue's inputs at
  // other points: neither may be an epilogue output.
  DenseSet<Value> read;
  for (linalg::GenericOp r : reductions)
    for (Value in : r.getDpsInputs())
      if (isa<MemRefType>(in.getType()))
        read.insert(getRootBuffer(in));
  for (linalg::GenericOp e : epilogue)
    for (OpOperand *in : e.getDpsInputOperands())
      if (isa<MemRefType>(in->get().getType()) &&
          !e.getMatchingIndexingMap(in).isIdentity())
        read.insert(getRootBuffer(in->get()));
  for (linalg::GenericOp e : epilogue)
    for (Value out : e.getDpsInits())
      if (read.contains(getRootBuffer(out))) {
        why = "an epilogue op writes a buffer the kernel reads";
        return false;
      }
  return true;
}

/// Bytes of a block's partials in shared memory: one per warp, reduction
/// and inner point of the block.
static int64_t getPartialsBytes(const ColumnGroupOps &c, int64_t threads,
                                int64_t colThreads, int64_t vec,
                                unsigned warpSize) {
  return threads / warpSize * (int64_t)c.ops.size() * colThreads * vec *
         getElementBytes(exchangeType(getAccType(c.ops[0])));
}

FailureOr<ColumnReduceStrategyAttr>
kf::selectColumnReduceStrategy(const ColumnGroupOps &c,
                               const KernelTargetInfo &target,
                               std::string &why) {
  if (!areColumnSiblings(c, target, why))
    return failure();
  FailureOr<ColumnReduceInfo> info = matchColumnReduce(c.ops, target, why);
  if (failed(info))
    return failure();
  bool seed = !c.fills.empty();
  if (target.blockSize % target.warpSize != 0 ||
      target.blockSize < target.warpSize) {
    why = "block size is not a multiple of the warp size";
    return failure();
  }
  MLIRContext *ctx = c.ops.front()->getContext();
  // Inner points that are not a multiple of the widest access: rows start
  // at every alignment, read through two aligned chunks each.
  if (info->shiftVec > info->vec) {
    info->vec = info->shiftVec;
    info->shifted = true;
  }
  ColumnConfig cfg = chooseColumnConfig(*info, target);
  if (getPartialsBytes(c, cfg.threads, cfg.columnThreads, info->vec,
                       target.warpSize) > (int64_t)target.sharedMemoryBytes) {
    why = "the reductions' partials need more shared memory than a block has";
    return failure();
  }
  int64_t blocks = llvm::divideCeil(getChunks(*info, info->vec),
                                    cfg.columnThreads) *
                   info->batch;
  // Slices of the reduced loop when the outputs leave multiprocessors
  // idle: two blocks per multiprocessor, each slice at least a full
  // unrolled sweep of the block's row lanes. (Balancing blocks that already
  // cover the multiprocessors with more slices measured slower: run 45, 384
  // blocks of 32768 x 256 f32 columns 7.55 us against 7.10 for 272.)
  int64_t rowLanes = cfg.threads / cfg.columnThreads;
  int64_t step = rowLanes * target.columnUnroll;
  int64_t slices = std::min<int64_t>(
      llvm::divideCeil(2 * (int64_t)target.multiprocessors, blocks),
      info->rows / step);
  if (blocks >= (int64_t)target.multiprocessors || slices < 2)
    return ColumnReduceStrategyAttr::get(
        ctx, ColumnReduceForm::WholeColumn, info->vec, cfg.threads,
        cfg.columnThreads, /*rows_per_block=*/info->rows, cfg.unroll,
        /*seed_from_fill=*/seed, info->shifted, /*last_block=*/false);
  int64_t rowsPerSlice =
      llvm::alignTo(llvm::divideCeil(info->rows, slices), rowLanes);
  return ColumnReduceStrategyAttr::get(
      ctx, ColumnReduceForm::SplitRows, info->vec, cfg.threads, cfg.columnThreads,
      rowsPerSlice, target.columnUnroll, /*seed_from_fill=*/seed,
      info->shifted, /*last_block=*/target.columnLastBlock);
}

LogicalResult kf::checkColumnReduceStrategy(const ColumnGroupOps &c,
                                            ColumnReduceStrategyAttr s,
                                            const KernelTargetInfo &target,
                                            Operation *anchor) {
  auto fail = [&] { return emitCannotHonour(anchor, s); };
  std::string why;
  if (!areColumnSiblings(c, target, why))
    return fail() << why;
  FailureOr<ColumnReduceInfo> info = matchColumnReduce(c.ops, target, why);
  if (failed(info))
    return fail() << why;
  if (!isColumnEpilogue(c.ops, c.epilogue, why))
    return fail() << why;
  bool fill = !c.fills.empty();
  int64_t vec = s.getVector();
  if (s.getShifted()) {
    if (s.getForm() == ColumnReduceForm::RowSlices)
      return fail() << "row slices have no shifted form";
    if (info->shiftVec == 0)
      return fail() << "the shifted form needs inputs along the inner points "
                       "that are buffers of static shape and identity "
                       "layout ending in the inner points, and at least two "
                       "vectors of inner points";
    if (vec < 2 || !llvm::isPowerOf2_64(vec) || info->shiftVec % vec != 0 ||
        2 * vec > info->cols)
      return fail() << "a shifted vector must be a power of two from 2 to "
                    << info->shiftVec << ", at most half of the "
                    << info->cols << " inner points";
  } else if (vec < 1 || !llvm::isPowerOf2_64(vec) || info->vec % vec != 0) {
    return fail() << "vector must be a power of two dividing " << info->vec
                  << " (the inner points, contiguous inputs and "
                  << target.vectorBytes << "-byte accesses allow)";
  }
  if (s.getUnroll() < 1 || s.getThreads() < 1 ||
      s.getThreads() > (int64_t)target.maxThreadsPerBlock)
    return fail() << "unroll and threads must be positive, threads at most "
                  << target.maxThreadsPerBlock;
  if (s.getSeedFromFill() != bool(fill))
    return fail() << (fill ? "the group's fills must seed the results "
                             "(seed_from_fill = true)"
                           : "seed_from_fill needs a fill of an output "
                             "in the group");
  if (s.getLastBlock() && s.getForm() != ColumnReduceForm::SplitRows)
    return fail() << "last_block combines the slices of split rows only";
  if (s.getForm() != ColumnReduceForm::RowSlices) {
    int64_t colThreads = s.getColumnThreads();
    if (s.getThreads() % target.warpSize != 0 || colThreads < 1 ||
        !llvm::isPowerOf2_64(colThreads) ||
        colThreads > (int64_t)target.warpSize)
      return fail() << "whole columns and split rows need threads a multiple "
                       "of "
                    << target.warpSize
                    << " and column_threads a power of two up to it";
    if (s.getThreads() < colThreads * vec)
      return fail() << "a block finishes one column per thread: threads "
                       "must be at least column_threads x vector ("
                    << colThreads * vec << ")";
    if (s.getForm() == ColumnReduceForm::WholeColumn &&
        s.getRowsPerBlock() != info->rows)
      return fail() << "whole columns cover every row: rows_per_block must be "
                    << info->rows;
    if (s.getForm() == ColumnReduceForm::SplitRows &&
        (s.getRowsPerBlock() < 1 || s.getRowsPerBlock() >= info->rows))
      return fail() << "split rows need rows_per_block between 1 and "
                    << info->rows - 1;
    if (getPartialsBytes(c, s.getThreads(), colThreads, vec,
                         target.warpSize) > (int64_t)target.sharedMemoryBytes)
      return fail() << "the partials of " << c.ops.size()
                    << " reductions need more than "
                    << target.sharedMemoryBytes << " bytes of shared memory";
    return success();
  }
  if (c.ops.size() != 1)
    return fail() << "row slices take one reduction";
  if (!info->outer.empty() || info->inner.size() != 1)
    return fail() << "row slices need a 2-D [reduction, parallel] op";
  if (fill || !c.epilogue.empty())
    return fail() << "row slices cannot absorb a fill or an epilogue";
  if (!atomicKindFor(info->kinds[0]))
    return fail() << "the combiner has no atomic form";
  if (s.getRowsPerBlock() < 1 ||
      llvm::divideCeil(info->rows, s.getRowsPerBlock()) > 65535)
    return fail() << "rows_per_block must give 1 to 65535 row slices";
  return success();
}

/// The op's loop indices at outer point `batch` (linear), reduced index `r`
/// and inner point `col` (linear).
static SmallVector<Value> getLoopIvs(OpBuilder &b, Location loc,
                                     const ColumnReduceInfo &info,
                                     ArrayRef<Value> outer, Value r,
                                     Value col) {
  SmallVector<Value> ivs(outer.begin(), outer.end());
  ivs.push_back(r);
  llvm::append_range(ivs, delinearize(b, loc, col, info.inner));
  return ivs;
}

/// The row-major linear index of `idx` in a buffer of static `shape`.
static Value getFlatIndex(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                          ValueRange idx) {
  Value flat;
  int64_t stride = 1;
  for (int64_t i = (int64_t)shape.size() - 1; i >= 0; --i) {
    Value term = stride == 1 ? idx[i]
                             : arith::MulIOp::create(b, loc, idx[i],
                                                     cIdx(b, loc, stride))
                                   .getResult();
    flat = flat ? arith::AddIOp::create(b, loc, flat, term).getResult() : term;
    stride *= shape[i];
  }
  return flat ? flat : cIdx(b, loc, 0);
}

namespace {
/// One input's lanes at one row: loaded lanes, or (shifted) the two aligned
/// chunks and the row's offset from alignment, its lanes selected only
/// when the row is folded (after every load of its batch is issued).
struct RowLanes {
  SmallVector<Value> lanes;
  SmallVector<Value> lo, hi, is;
};
using RowLoads = DenseMap<std::pair<Value, AffineMap>, RowLanes>;
} // namespace

/// The two aligned chunks a shifted input's lanes `col0 .. col0 + vec`
/// straddle, its row at linear index `flat` at `col0`, and which offset
/// from alignment the row has (the same for every lane of the row, so the
/// selects never diverge).
static RowLanes loadShiftedChunks(OpBuilder &b, Location loc, Value flatView,
                                  Value flat, unsigned vec) {
  Value mis = arith::RemUIOp::create(b, loc, flat, cIdx(b, loc, vec));
  Value al = arith::SubIOp::create(b, loc, flat, mis);
  RowLanes r;
  r.lo = loadLanes(b, loc, flatView, {al}, vec);
  r.hi = loadLanes(
      b, loc, flatView,
      {arith::AddIOp::create(b, loc, al, cIdx(b, loc, vec)).getResult()}, vec);
  for (unsigned k = 1; k < vec; ++k)
    r.is.push_back(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, mis,
                                         cIdx(b, loc, k)));
  return r;
}

/// The lanes of `r`: as loaded, or selected from its chunks.
static ArrayRef<Value> getLanes(OpBuilder &b, Location loc, RowLanes &r,
                                unsigned vec) {
  if (r.lanes.empty()) {
    for (unsigned l = 0; l < vec; ++l) {
      Value v = r.lo[l];
      for (unsigned k = 1; k < vec; ++k) {
        Value at = l + k < vec ? r.lo[l + k] : r.hi[l + k - vec];
        v = arith::SelectOp::create(b, loc, r.is[k - 1], at, v);
      }
      r.lanes.push_back(v);
    }
  }
  return r.lanes;
}

/// Loads of the inputs of `ops` at reduced index `r` (clamped by the
/// caller) and inner points `col0 .. col0 + vec`, each (buffer, map) once.
/// In the shifted form inputs along the reduced loop are read through
/// `flatViews` in aligned chunks, other inputs along the inner points (and,
/// with `peel`, every input: the last row, whose second chunk may lie past
/// the buffer) lane by lane at inner points clamped to the last.
static void loadRow(OpBuilder &b, Location loc,
                    ArrayRef<linalg::GenericOp> ops,
                    const ColumnReduceInfo &info, ArrayRef<Value> outer,
                    Value r, Value col0, unsigned vec,
                    const DenseMap<Value, Value> *flatViews, bool peel,
                    RowLoads &loaded) {
  SmallVector<Value> ivs0 = getLoopIvs(b, loc, info, outer, r, col0);
  unsigned red = info.outer.size();
  for (linalg::GenericOp op : ops) {
    for (OpOperand *in : op.getDpsInputOperands()) {
      Value v = in->get();
      if (!isa<MemRefType>(v.getType()))
        continue;
      AffineMap m = op.getMatchingIndexingMap(in);
      auto [it, inserted] = loaded.try_emplace({v, m});
      if (!inserted)
        continue;
      SmallVector<Value> idx = expandIndices(b, loc, m, ivs0);
      // A shifted chunk may cross the rows of the last inner dim: inputs
      // along any inner dim differ between its lanes.
      bool alongInner = false;
      for (unsigned d = red + 1; d < op.getNumLoops(); ++d)
        alongInner |= m.isFunctionOfDim(d);
      SmallVector<Value> &lanes = it->second.lanes;
      if (!info.shifted && !m.isFunctionOfDim(op.getNumLoops() - 1)) {
        lanes.assign(vec, memref::LoadOp::create(b, loc, v, idx).getResult());
      } else if (!info.shifted) {
        lanes = loadLanes(b, loc, v, idx, vec);
      } else if (!alongInner) {
        lanes.assign(vec, memref::LoadOp::create(b, loc, v, idx).getResult());
      } else if (isShiftableInput(op, in, red) == ShiftRole::Shifted && !peel) {
        auto shape = cast<MemRefType>(v.getType()).getShape();
        it->second = loadShiftedChunks(b, loc, flatViews->lookup(v),
                                       getFlatIndex(b, loc, shape, idx), vec);
      } else {
        for (unsigned l = 0; l < vec; ++l) {
          Value col = arith::MinUIOp::create(
              b, loc, arith::AddIOp::create(b, loc, col0, cIdx(b, loc, l)),
              cIdx(b, loc, info.cols - 1));
          SmallVector<Value> lidx = expandIndices(
              b, loc, m, getLoopIvs(b, loc, info, outer, r, col));
          lanes.push_back(memref::LoadOp::create(b, loc, v, lidx));
        }
      }
    }
  }
}

/// Folds one row's `loaded` inputs into `accs` through each op's body (op
/// i of `ops` is reduction first + i of the group, its lane l at
/// (first + i) * vec + l); `valid` (may be null) masks the update.
static void foldRow(OpBuilder &b, Location loc,
                    ArrayRef<linalg::GenericOp> ops, unsigned first,
                    const ColumnReduceInfo &info, ArrayRef<Value> outer,
                    Value r, Value col0, unsigned vec, Value valid,
                    RowLoads &loaded, SmallVector<Value> &accs) {
  SmallVector<Value> ivs0 = getLoopIvs(b, loc, info, outer, r, col0);
  for (auto [i, constOp] : llvm::enumerate(ops)) {
    linalg::GenericOp op = constOp;
    unsigned k = first + i;
    SmallVector<SmallVector<Value>> ins;
    for (OpOperand *in : op.getDpsInputOperands()) {
      Value v = in->get();
      if (!isa<MemRefType>(v.getType())) {
        ins.push_back(SmallVector<Value>(vec, v));
        continue;
      }
      RowLanes &lanes = loaded[{v, op.getMatchingIndexingMap(in)}];
      ins.push_back(llvm::to_vector(getLanes(b, loc, lanes, vec)));
    }
    for (unsigned l = 0; l < vec; ++l) {
      Value &acc = accs[k * vec + l];
      SmallVector<Value> args;
      for (auto &i : ins)
        args.push_back(i[l]);
      args.push_back(acc);
      SmallVector<Value> ivs = ivs0;
      if (l && info.shifted)
        ivs = getLoopIvs(b, loc, info, outer, r,
                         arith::AddIOp::create(b, loc, col0, cIdx(b, loc, l)));
      else if (l)
        ivs.back() = arith::AddIOp::create(b, loc, ivs.back(), cIdx(b, loc, l));
      Value upd = cloneBody(b, op, args, ivs)[0];
      acc = valid ? arith::SelectOp::create(b, loc, valid, upd, acc).getResult()
                  : upd;
    }
  }
}

/// One row, op by op: each op's loads (those another op of the row
/// already made are reused), then its fold.
static void accumulateRow(OpBuilder &b, Location loc,
                          ArrayRef<linalg::GenericOp> ops,
                          const ColumnReduceInfo &info, ArrayRef<Value> outer,
                          Value r, Value col0, unsigned vec, Value valid,
                          SmallVector<Value> &accs,
                          const DenseMap<Value, Value> *flatViews = nullptr,
                          bool peel = false) {
  RowLoads loaded;
  for (auto [k, op] : llvm::enumerate(ops)) {
    loadRow(b, loc, op, info, outer, r, col0, vec, flatViews, peel, loaded);
    foldRow(b, loc, op, k, info, outer, r, col0, vec, valid, loaded, accs);
  }
}

/// 32-bit registers one row's loads hold in flight.
static int64_t getRowLoadRegisters(ArrayRef<linalg::GenericOp> ops,
                                   const ColumnReduceInfo &info,
                                   unsigned vec) {
  DenseSet<std::pair<Value, AffineMap>> seen;
  int64_t bytes = 0;
  unsigned red = info.outer.size();
  for (linalg::GenericOp op : ops)
    for (OpOperand *in : op.getDpsInputOperands()) {
      auto mt = dyn_cast<MemRefType>(in->get().getType());
      AffineMap m = op.getMatchingIndexingMap(in);
      if (!mt || !seen.insert({in->get(), m}).second)
        continue;
      int64_t lanes =
          m.isFunctionOfDim(op.getNumLoops() - 1) || info.shifted ? vec : 1;
      if (info.shifted && isShiftableInput(op, in, red) == ShiftRole::Shifted)
        lanes *= 2;
      bytes += llvm::alignTo(lanes * getElementBytes(mt.getElementType()), 4);
    }
  return std::max<int64_t>(1, bytes / 4);
}

/// Combines each reduction's total (in the exchange type) with its seed
/// (the value of its fill in the group, or the output's old value), stores
/// output (`outer`, `col`) unless private, then evaluates the epilogue
/// there.
static void storeSeeded(OpBuilder &b, Location loc, const ColumnGroupOps &c,
                        const ColumnReduceInfo &info, ArrayRef<Value> outer,
                        Value col, ArrayRef<Value> totals,
                        const ColumnEpilogue &epi) {
  SmallVector<Value> ivs = getLoopIvs(b, loc, info, outer, cIdx(b, loc, 0), col);
  DenseMap<Value, Value> held;
  SmallVector<Value> idx;
  for (auto [k, constOp] : llvm::enumerate(c.ops)) {
    linalg::GenericOp op = constOp;
    OpOperand &out = op.getDpsInitsMutable()[0];
    Type accType = getAccType(op);
    Value total = totals[k];
    if (total.getType() != accType)
      total = arith::TruncFOp::create(b, loc, accType, total);
    idx = expandIndices(b, loc, op.getMatchingIndexingMap(&out), ivs);
    linalg::GenericOp fill = c.getFillOf(op);
    Value seed =
        fill ? getFillValue(fill)
             : memref::LoadOp::create(b, loc, out.get(), idx).getResult();
    Value result = arith::getReductionOp(info.kinds[k], b, loc, seed, total);
    Value root = getRootBuffer(out.get());
    if (!epi.privates.contains(root))
      memref::StoreOp::create(b, loc, result, out.get(), idx);
    held[root] = result;
  }
  // The epilogue at this output point (its loops are the outputs' dims).
  if (!epi.ops.empty())
    evalElementwiseChain(b, loc, epi.ops, idx, held, epi.privates);
}

/// The launch's linear thread index over blocks of `threads`, with the
/// builder inside a guard `index < count` when the blocks cover more.
static Value getGuardedThreadIndex(OpBuilder &b, Location loc,
                                   gpu::LaunchOp launch, int64_t threads,
                                   int64_t blocks, int64_t count) {
  Value i = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                            cIdx(b, loc, threads)),
      launch.getThreadIds().x);
  if (blocks * threads != count) {
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, i,
                                     cIdx(b, loc, count));
    auto ifOp = scf::IfOp::create(b, loc, ok, false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  }
  return i;
}

/// Each reduction k's total over the `n` rows of `buf` at column `index` +
/// k * `stride`, combined in row order.
static SmallVector<Value> combineEach(OpBuilder &b, Location loc,
                                      const ColumnReduceInfo &info, Value buf,
                                      int64_t n, Value index, int64_t stride) {
  SmallVector<Value> totals;
  for (auto [k, kind] : llvm::enumerate(info.kinds)) {
    Value at = index;
    if (k)
      at = arith::AddIOp::create(b, loc, index, cIdx(b, loc, k * stride));
    totals.push_back(combineInOrder(b, loc, kind, buf, n, at));
  }
  return totals;
}

/// Registers of loads one batch of shifted rows holds in flight: 8 rows of
/// two chunks of 4 f32 lanes.
static constexpr int64_t kBatchRegisters = 64;

/// Whole-column and split-rows forms: each block owns `colThreads` chunks
/// of one batch over a slice of rows (every row for whole columns;
/// `colThreads` threads side by side, the other threads of the block walk
/// rows); partials are combined with shuffles and shared memory. Whole
/// columns: each output is seeded and stored once, no atomics and no
/// initialization kernel. Split rows: each slice's totals go to a workspace
/// that a second kernel combines in slice order, then seeds and stores
/// (`last_block`: the column block's last block to arrive does that).
/// Every reduction of the group keeps its own accumulators, partials and
/// workspace rows; loads they share are emitted once.
static void emitColumnBlocks(RewriterBase &b, const ColumnGroupOps &c,
                             const ColumnReduceInfo &info,
                             ColumnReduceStrategyAttr s,
                             const ColumnEpilogue &epi, unsigned warpSize,
                             int64_t blockSize) {
  linalg::GenericOp op = c.ops.back();
  unsigned vec = info.vec;
  int64_t nOps = c.ops.size();
  int64_t colThreads = s.getColumnThreads();
  int64_t colChunks = getChunks(info, vec);
  int64_t colBlocks = llvm::divideCeil(colChunks, colThreads);
  int64_t rowsPerSlice = s.getRowsPerBlock();
  int64_t slices = llvm::divideCeil(info.rows, rowsPerSlice);
  bool split = s.getForm() == ColumnReduceForm::SplitRows;
  int64_t threads = s.getThreads();
  int64_t rowLanes = threads / colThreads;
  int64_t numWarps = threads / warpSize;
  int64_t unroll = s.getUnroll();
  Location loc = op.getLoc();
  Type xType = exchangeType(getAccType(c.ops[0]));
  MLIRContext *ctx = b.getContext();
  // Partials of reduction k, column thread ct, lane l at slot
  // (k * colThreads + ct) * vec + l of the warp's row.
  int64_t perOp = colThreads * vec;
  auto smemType = MemRefType::get(
      {numWarps, nOps * perOp}, xType, AffineMap(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
  b.setInsertionPoint(op);
  int64_t outputs = info.batch * info.cols;
  Value workspace;
  if (split)
    workspace = memref::AllocOp::create(
        b, loc, MemRefType::get({slices, nOps * outputs}, xType));
  gpu::LaunchOp launch = createLaunch(b, loc, {colBlocks * info.batch * slices},
                                      {threads}, TypeRange{smemType});
  Value smem = launch.getWorkgroupAttributions().front();
  Value tid = launch.getThreadIds().x;
  // Block (slice, batch, column block), column blocks fastest.
  SmallVector<Value> bids = delinearize(b, loc, launch.getBlockIds().x,
                                        {slices, info.batch, colBlocks});
  Value slice = bids[0], batch = bids[1], colBlock = bids[2];
  SmallVector<Value> outer = delinearize(b, loc, batch, info.outer);
  Value ct = arith::RemUIOp::create(b, loc, tid, cIdx(b, loc, colThreads));
  Value rl = arith::DivUIOp::create(b, loc, tid, cIdx(b, loc, colThreads));
  Value chunk = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, colBlock, cIdx(b, loc, colThreads)),
      ct);
  // Threads past the last chunk load the last chunk again (every thread
  // takes part in the barrier) and store nothing.
  if (colBlocks * colThreads != colChunks)
    chunk = arith::MinUIOp::create(b, loc, chunk, cIdx(b, loc, colChunks - 1));
  Value col0 = arith::MulIOp::create(b, loc, chunk, cIdx(b, loc, vec));
  SmallVector<Value> inits;
  for (auto [k, r] : llvm::enumerate(c.ops)) {
    Value id = arith::getIdentityValue(info.kinds[k], getAccType(r), b, loc);
    inits.append(vec, id);
  }
  int64_t step = rowLanes * unroll;
  // The loop runs over the slice's offsets (a constant trip count, which
  // memopt-pipeline-loads needs); rows are rowStart + offset.
  Value rowStart = cIdx(b, loc, 0), rowEnd = cIdx(b, loc, info.rows);
  if (split) {
    rowStart =
        arith::MulIOp::create(b, loc, slice, cIdx(b, loc, rowsPerSlice));
    rowEnd = arith::MinUIOp::create(
        b, loc,
        arith::AddIOp::create(b, loc, rowStart, cIdx(b, loc, rowsPerSlice)),
        cIdx(b, loc, info.rows));
  }
  // Shifted rows: flat views of the inputs read in aligned chunks, and the
  // last row (whose second chunk may lie past the end of a buffer) left to
  // a lane-by-lane step after the loop; masked rows read row 0.
  DenseMap<Value, Value> flatViews;
  Value lastRow = cIdx(b, loc, info.rows - 1);
  if (info.shifted) {
    for (linalg::GenericOp r : c.ops)
      for (OpOperand *in : r.getDpsInputOperands()) {
        Value v = in->get();
        if (isShiftableInput(r, in, info.outer.size()) != ShiftRole::Shifted ||
            flatViews.count(v))
          continue;
        flatViews[v] = createFlatView(b, loc, v);
      }
    rowEnd = arith::MinUIOp::create(b, loc, rowEnd, lastRow);
  }
  Value maskedRow = info.shifted ? cIdx(b, loc, 0) : rowStart;
  bool exact = !info.shifted && rowsPerSlice % step == 0 &&
               info.rows % rowsPerSlice == 0;
  auto loop = scf::ForOp::create(
      b, loc, cIdx(b, loc, 0), cIdx(b, loc, rowsPerSlice), cIdx(b, loc, step),
      inits, [&](OpBuilder &nb, Location, Value i0, ValueRange accIn) {
        SmallVector<Value> accs(accIn.begin(), accIn.end());
        Value base = arith::AddIOp::create(nb, loc, i0, rl);
        if (split)
          base = arith::AddIOp::create(nb, loc, base, rowStart);
        // Shifted rows: the unrolled rows in batches whose loads are all
        // issued before any is used, at most kBatchRegisters registers of
        // loads per batch (run 46: 5-6% faster on 33 x 2047 x 129 f32;
        // the same batching of unshifted rows measured 3.7% slower on
        // 1048576 x 64 f16 column statistics, so they fold row by row).
        int64_t batch =
            info.shifted
                ? std::clamp<int64_t>(kBatchRegisters /
                                          getRowLoadRegisters(c.ops, info, vec),
                                      1, unroll)
                : 1;
        // Unrolled row u: its reduced index (masked rows read maskedRow)
        // and whether it is in the slice (null when every row is).
        auto getRow = [&](int64_t u) -> std::pair<Value, Value> {
          Value r =
              arith::AddIOp::create(nb, loc, base, cIdx(nb, loc, u * rowLanes));
          if (exact)
            return {r, Value()};
          Value ok = arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::ult,
                                           r, rowEnd);
          return {arith::SelectOp::create(nb, loc, ok, r, maskedRow), ok};
        };
        for (int64_t u0 = 0; u0 < unroll && batch == 1; ++u0) {
          auto [r, ok] = getRow(u0);
          accumulateRow(nb, loc, c.ops, info, outer, r, col0, vec, ok, accs,
                        &flatViews);
        }
        for (int64_t u0 = 0; u0 < unroll && batch > 1; u0 += batch) {
          SmallVector<Value> rows, oks;
          SmallVector<RowLoads> loads;
          for (int64_t u = u0; u < std::min(unroll, u0 + batch); ++u) {
            auto [r, ok] = getRow(u);
            rows.push_back(r);
            oks.push_back(ok);
            loadRow(nb, loc, c.ops, info, outer, r, col0, vec, &flatViews,
                    /*peel=*/false, loads.emplace_back());
          }
          for (auto [r, ok, l] : llvm::zip(rows, oks, loads))
            foldRow(nb, loc, c.ops, 0, info, outer, r, col0, vec, ok, l, accs);
        }
        scf::YieldOp::create(nb, loc, accs);
      });
  SmallVector<Value> finalAccs(loop.getResults());
  if (info.shifted) {
    // The last row: the first row lane of the block whose slice holds it.
    Value mine = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rl,
                                       cIdx(b, loc, 0));
    if (split)
      mine = arith::AndIOp::create(
          b, loc, mine,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, slice,
                                cIdx(b, loc, slices - 1)));
    accumulateRow(b, loc, c.ops, info, outer, lastRow, col0, vec, mine,
                  finalAccs, &flatViews, /*peel=*/true);
  }
  // Threads of a warp with the same column chunk differ in the lane bits
  // above log2(colThreads): fold those with xor shuffles, then one partial
  // per warp goes through shared memory.
  Value lane = arith::RemUIOp::create(b, loc, tid, cIdx(b, loc, warpSize));
  Value warp = arith::DivUIOp::create(b, loc, tid, cIdx(b, loc, warpSize));
  Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lane,
                                       cIdx(b, loc, colThreads));
  SmallVector<Value> partials;
  for (int64_t k = 0; k < nOps; ++k) {
    for (unsigned l = 0; l < vec; ++l) {
      Value v = finalAccs[k * vec + l];
      if (xType != v.getType())
        v = arith::ExtFOp::create(b, loc, xType, v);
      for (int64_t off = warpSize / 2; off >= colThreads; off /= 2) {
        auto shfl = gpu::ShuffleOp::create(b, loc, v, off, warpSize,
                                           gpu::ShuffleMode::XOR);
        v = arith::getReductionOp(info.kinds[k], b, loc, v,
                                  shfl.getShuffleResult());
      }
      partials.push_back(v);
    }
  }
  {
    OpBuilder::InsertionGuard guard(b);
    auto ifOp = scf::IfOp::create(b, loc, leader, false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value slot0 = arith::MulIOp::create(b, loc, ct, cIdx(b, loc, vec));
    for (int64_t k = 0; k < nOps; ++k)
      for (unsigned l = 0; l < vec; ++l) {
        Value slot = arith::AddIOp::create(b, loc, slot0,
                                           cIdx(b, loc, k * perOp + l));
        memref::StoreOp::create(b, loc, partials[k * vec + l], smem,
                                ValueRange{warp, slot});
      }
  }
  gpu::BarrierOp::create(b, loc);
  // The first colThreads * vec threads each finish one inner point.
  Value col = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, colBlock, cIdx(b, loc, perOp)),
      tid);
  Value owns = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid,
                                     cIdx(b, loc, perOp));
  if (colBlocks * perOp != info.cols)
    owns = arith::AndIOp::create(
        b, loc, owns,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col,
                              cIdx(b, loc, info.cols)));
  // Split rows: this thread's output, (batch, col) linearized.
  Value o;
  if (split)
    o = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, batch, cIdx(b, loc, info.cols)),
        col);
  {
    OpBuilder::InsertionGuard guard(b);
    auto ifOp = scf::IfOp::create(b, loc, owns, false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    SmallVector<Value> totals =
        combineEach(b, loc, info, smem, numWarps, tid, perOp);
    if (!split) {
      storeSeeded(b, loc, c, info, outer, col, totals, epi);
    } else {
      for (int64_t k = 0; k < nOps; ++k) {
        Value ok = o;
        if (k)
          ok = arith::AddIOp::create(b, loc, o, cIdx(b, loc, k * outputs));
        memref::StoreOp::create(b, loc, totals[k], workspace,
                                ValueRange{slice, ok});
      }
    }
  }
  if (!split)
    return;
  if (s.getLastBlock()) {
    // The last block of the column block to arrive combines the slices'
    // partials in slice order (the second kernel's order), seeds and stores.
    Value slot = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, batch, cIdx(b, loc, colBlocks)),
        colBlock);
    Value last = LastArrivalOp::create(
        b, loc, b.getI1Type(), slot, b.getI64IntegerAttr(slices),
        b.getI64IntegerAttr(colBlocks * info.batch));
    auto ifOp = scf::IfOp::create(
        b, loc, arith::AndIOp::create(b, loc, last, owns), false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    SmallVector<Value> totals =
        combineEach(b, loc, info, workspace, slices, o, outputs);
    storeSeeded(b, loc, c, info, outer, col, totals, epi);
  } else {
    // The second kernel: one thread per output combines the slices'
    // partials in slice order, seeds and stores.
    b.setInsertionPoint(op);
    int64_t finishThreads =
        std::min<int64_t>(blockSize, llvm::alignTo(outputs, warpSize));
    int64_t finishBlocks = llvm::divideCeil(outputs, finishThreads);
    gpu::LaunchOp finish =
        createLaunch(b, loc, {finishBlocks}, {finishThreads});
    Value fo = getGuardedThreadIndex(b, loc, finish, finishThreads,
                                     finishBlocks, outputs);
    SmallVector<Value> totals =
        combineEach(b, loc, info, workspace, slices, fo, outputs);
    SmallVector<Value> bc = delinearize(b, loc, fo, {info.batch, info.cols});
    storeSeeded(b, loc, c, info, delinearize(b, loc, bc[0], info.outer),
                bc[1], totals, epi);
  }
  b.setInsertionPoint(op);
  memref::DeallocOp::create(b, loc, workspace);
}

/// Row-sliced form (pinned only, one reduction): each thread owns `vec`
/// columns, each block a slice of rows; partials are combined into the
/// (initialized) output with atomics.
static void emitAtomicColumnReduce(RewriterBase &b, linalg::GenericOp op,
                                   const ColumnReduceInfo &info,
                                   ColumnReduceStrategyAttr s) {
  std::optional<arith::AtomicRMWKind> atomic = atomicKindFor(info.kinds[0]);
  OpOperand &out = op.getDpsInitsMutable()[0];
  int64_t rowsTotal = info.rows, cols = info.cols;
  unsigned vec = info.vec;
  Location loc = op.getLoc();
  int64_t colChunks = cols / vec;
  int64_t threads = s.getThreads();
  int64_t colBlocks = llvm::divideCeil(colChunks, threads);
  int64_t rowsPerBlock = s.getRowsPerBlock();
  int64_t rowBlocks = llvm::divideCeil(rowsTotal, rowsPerBlock);
  b.setInsertionPoint(op);
  gpu::LaunchOp launch =
      createLaunch(b, loc, {colBlocks, rowBlocks}, {threads});
  Value chunk = getGuardedThreadIndex(b, loc, launch, threads, colBlocks,
                                      colChunks);
  Value col0 = arith::MulIOp::create(b, loc, chunk, cIdx(b, loc, vec));
  Value rowStart = arith::MulIOp::create(b, loc, launch.getBlockIds().y,
                                         cIdx(b, loc, rowsPerBlock));
  Value rowEnd = arith::MinUIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, rowStart, cIdx(b, loc, rowsPerBlock)),
      cIdx(b, loc, rowsTotal));
  SmallVector<Value> inits(
      vec, arith::getIdentityValue(info.kinds[0], getAccType(op), b, loc));
  // Unrolled so that each thread has `unroll` independent loads in flight;
  // rows past the slice are clamped for the load and masked out of the
  // accumulation.
  int64_t unroll = s.getUnroll();
  auto loop = scf::ForOp::create(
      b, loc, rowStart, rowEnd, cIdx(b, loc, unroll), inits,
      [&](OpBuilder &nb, Location, Value r, ValueRange accIn) {
        SmallVector<Value> accs(accIn.begin(), accIn.end());
        for (int64_t u = 0; u < unroll; ++u) {
          Value ru = arith::AddIOp::create(nb, loc, r, cIdx(nb, loc, u));
          Value ok = arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::ult,
                                           ru, rowEnd);
          Value rc = arith::SelectOp::create(nb, loc, ok, ru, rowStart);
          accumulateRow(nb, loc, {op}, info, {}, rc, col0, vec, ok, accs);
        }
        scf::YieldOp::create(nb, loc, accs);
      });
  for (unsigned l = 0; l < vec; ++l) {
    Value c =
        l ? arith::AddIOp::create(b, loc, col0, cIdx(b, loc, l)).getResult()
          : col0;
    memref::AtomicRMWOp::create(b, loc, *atomic, loop.getResult(l), out.get(),
                                ValueRange{c});
  }
}

DenseSet<Value> kf::emitColumnReduceKernel(RewriterBase &b,
                                           const ColumnGroupOps &c,
                                           ColumnReduceStrategyAttr s,
                                           const KernelTargetInfo &target) {
  std::string why;
  // checkColumnReduceStrategy proved that it matches.
  ColumnReduceInfo info = *matchColumnReduce(c.ops, target, why);
  info.vec = s.getVector();
  info.shifted = s.getShifted();
  if (s.getForm() == ColumnReduceForm::RowSlices) {
    emitAtomicColumnReduce(b, c.ops[0], info, s);
    return {};
  }
  // Buffers written in the kernel that only its ops (and deallocations)
  // use.
  ColumnEpilogue epi{c.epilogue, {}};
  DenseSet<Operation *> members(llvm::from_range, c.epilogue);
  for (linalg::GenericOp op : c.ops)
    members.insert(op);
  for (linalg::GenericOp f : c.fills)
    members.insert(f);
  // A reduction's output without a fill seeds from its old value: kept.
  SmallVector<Value> written;
  for (linalg::GenericOp op : c.ops)
    if (c.getFillOf(op))
      written.push_back(getRootBuffer(op.getDpsInits()[0]));
  for (linalg::GenericOp e : c.epilogue)
    for (Value out : e.getDpsInits())
      written.push_back(getRootBuffer(out));
  if (!c.epilogue.empty())
    for (Value root : written)
      if (root.getDefiningOp<memref::AllocOp>() &&
          llvm::all_of(root.getUsers(), [&](Operation *u) {
            return members.contains(u) || isa<memref::DeallocOp>(u);
          }))
        epi.privates.insert(root);
  emitColumnBlocks(b, c, info, s, epi, target.warpSize, target.blockSize);
  return epi.privates;
}
