//===- ColumnReduceStrategy.cpp - reductions over the outer loop -*- C++
//-*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The column-reduction family (#memopt.column_reduce): a 2-D op reducing
// its outer loop. Threads own columns (coalesced, vectorized along the
// contiguous dim) and walk rows; the whole-column form gives each block a
// slice of columns over every row (no atomics; a fill of the output just
// before, in the same group, seeds the result), the row-slice form gives
// blocks slices of rows combined with atomics, for outputs too narrow to
// fill the GPU by columns.
//
//===----------------------------------------------------------------------===//

#include "EmitUtils.h"
#include "Strategies.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

namespace {
/// What the two column-reduction forms share: a [reduction, parallel] op
/// whose single output is indexed by the column.
struct ColumnReduceInfo {
  arith::AtomicRMWKind kind;
  int64_t rows, cols;
  unsigned vec;
  int64_t maxBytes;
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

static FailureOr<ColumnReduceInfo>
matchColumnReduce(linalg::GenericOp op, const KernelTargetInfo &target,
                  std::string &why) {
  auto iters = op.getIteratorTypesArray();
  if (iters.size() != 2 || iters[0] != utils::IteratorType::reduction ||
      iters[1] != utils::IteratorType::parallel) {
    why = "not a [reduction, parallel] op";
    return failure();
  }
  FailureOr<arith::AtomicRMWKind> kind = matchCombiner(op, why);
  if (failed(kind))
    return failure();
  OpOperand &out = op.getDpsInitsMutable()[0];
  AffineMap outMap = op.getMatchingIndexingMap(&out);
  if (outMap.getNumResults() != 1 || !isa<AffineDimExpr>(outMap.getResult(0)) ||
      outMap.getDimPosition(0) != 1) {
    why = "output is not indexed by the column";
    return failure();
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  ColumnReduceInfo info{*kind, ranges[0], ranges[1], 1, 1};
  bool allContiguous = true;
  for (OpOperand *in : op.getDpsInputOperands()) {
    auto mt = dyn_cast<MemRefType>(in->get().getType());
    if (!mt)
      continue;
    info.maxBytes =
        std::max(info.maxBytes, getElementBytes(mt.getElementType()));
    AffineMap m = op.getMatchingIndexingMap(in);
    if (m.getNumResults() == 0 || !isa<AffineDimExpr>(m.getResults().back()) ||
        m.getDimPosition(m.getNumResults() - 1) != 1)
      allContiguous = false;
  }
  if (allContiguous) {
    info.vec = std::max<int64_t>(1, target.vectorBytes / info.maxBytes);
    while (info.vec > 1 && info.cols % info.vec != 0)
      info.vec /= 2;
  }
  return info;
}

/// Threads side by side along a row in the whole-column form: enough to
/// cover `columnSliceBytes` contiguous bytes, at most a warp.
static int64_t getColumnThreads(const ColumnReduceInfo &info,
                                const KernelTargetInfo &target) {
  int64_t colThreads = 1;
  while (colThreads * info.vec * info.maxBytes <
             (int64_t)target.columnSliceBytes &&
         colThreads < (int64_t)target.warpSize)
    colThreads *= 2;
  return colThreads;
}

/// Whether the whole-column form applies: its column slices alone give
/// every multiprocessor a block.
static bool canUseWholeColumns(const ColumnReduceInfo &info,
                               const KernelTargetInfo &target,
                               std::string &why) {
  int64_t colBlocks =
      llvm::divideCeil(info.cols / info.vec, getColumnThreads(info, target));
  if (colBlocks < (int64_t)target.multiprocessors) {
    why = "too few column slices (" + std::to_string(colBlocks) +
          ") to give every multiprocessor a block";
    return false;
  }
  int64_t threads = target.blockSize;
  if (threads % target.warpSize != 0 || threads < (int64_t)target.warpSize) {
    why = "block size is not a multiple of the warp size";
    return false;
  }
  if (threads < getColumnThreads(info, target) * info.vec) {
    why = "a block of " + std::to_string(threads) +
          " threads cannot finish its " +
          std::to_string(getColumnThreads(info, target) * info.vec) +
          " columns";
    return false;
  }
  return true;
}

bool kf::canSeedFromFill(linalg::GenericOp op, const KernelTargetInfo &target) {
  std::string why;
  FailureOr<ColumnReduceInfo> info = matchColumnReduce(op, target, why);
  return succeeded(info) && canUseWholeColumns(*info, target, why);
}

FailureOr<ColumnReduceStrategyAttr>
kf::selectColumnReduceStrategy(linalg::GenericOp op, linalg::GenericOp fill,
                               const KernelTargetInfo &target,
                               std::string &why) {
  FailureOr<ColumnReduceInfo> info = matchColumnReduce(op, target, why);
  if (failed(info))
    return failure();
  MLIRContext *ctx = op.getContext();
  std::string whyWhole;
  if (canUseWholeColumns(*info, target, whyWhole))
    return ColumnReduceStrategyAttr::get(
        ctx, ColumnReduceForm::WholeColumn, info->vec, target.blockSize,
        getColumnThreads(*info, target), /*rows_per_block=*/info->rows,
        target.columnUnroll, /*seed_from_fill=*/bool(fill));
  if (fill) {
    why = "whole columns: " + whyWhole +
          "; row slices: the fill in the group needs whole columns";
    return failure();
  }
  if (!atomicKindFor(info->kind)) {
    why = "whole columns: " + whyWhole +
          "; row slices: combiner has no atomic form";
    return failure();
  }
  int64_t colChunks = info->cols / info->vec;
  int64_t threads = std::min<int64_t>(
      target.blockSize, llvm::alignTo(colChunks, target.warpSize));
  int64_t rowBlocks =
      llvm::divideCeil(info->rows, (int64_t)target.columnRowsPerBlock);
  if (rowBlocks > 65535) {
    why = "whole columns: " + whyWhole +
          "; row slices: too many row slices for the grid's y dimension";
    return failure();
  }
  return ColumnReduceStrategyAttr::get(
      ctx, ColumnReduceForm::RowSlices, info->vec, threads,
      /*column_threads=*/1, target.columnRowsPerBlock, target.columnUnroll,
      /*seed_from_fill=*/false);
}

LogicalResult kf::checkColumnReduceStrategy(linalg::GenericOp op,
                                            linalg::GenericOp fill,
                                            ColumnReduceStrategyAttr s,
                                            const KernelTargetInfo &target,
                                            Operation *anchor) {
  auto fail = [&] { return emitCannotHonour(anchor, s); };
  std::string why;
  FailureOr<ColumnReduceInfo> info = matchColumnReduce(op, target, why);
  if (failed(info))
    return fail() << why;
  int64_t vec = s.getVector();
  if (vec < 1 || !llvm::isPowerOf2_64(vec) || info->vec % vec != 0)
    return fail() << "vector must be a power of two dividing " << info->vec
                  << " (the columns, contiguous inputs and "
                  << target.vectorBytes << "-byte accesses allow)";
  if (s.getUnroll() < 1 || s.getThreads() < 1 ||
      s.getThreads() > (int64_t)target.maxThreadsPerBlock)
    return fail() << "unroll and threads must be positive, threads at most "
                  << target.maxThreadsPerBlock;
  if (s.getSeedFromFill() != bool(fill))
    return fail() << (fill ? "the group's fill must seed the result "
                             "(seed_from_fill = true)"
                           : "seed_from_fill needs a fill of the output "
                             "in the group");
  if (s.getForm() == ColumnReduceForm::WholeColumn) {
    int64_t colThreads = s.getColumnThreads();
    if (s.getThreads() % target.warpSize != 0 || colThreads < 1 ||
        !llvm::isPowerOf2_64(colThreads) ||
        colThreads > (int64_t)target.warpSize)
      return fail() << "whole columns need threads a multiple of "
                    << target.warpSize
                    << " and column_threads a power of two up to it";
    if (s.getThreads() < colThreads * vec)
      return fail() << "a block finishes one column per thread: threads "
                       "must be at least column_threads x vector ("
                    << colThreads * vec << ")";
    return success();
  }
  if (fill)
    return fail() << "row slices cannot absorb a fill";
  if (!atomicKindFor(info->kind))
    return fail() << "the combiner has no atomic form";
  if (s.getRowsPerBlock() < 1 ||
      llvm::divideCeil(info->rows, s.getRowsPerBlock()) > 65535)
    return fail() << "rows_per_block must give 1 to 65535 row slices";
  return success();
}

/// Whole-column form: each block owns a slice of columns over all rows
/// (`colThreads` threads side by side cover `columnSliceBytes` contiguous
/// bytes of a row, the other threads of the block walk rows), partials are
/// combined with shuffles and shared memory and each column is stored once. No
/// atomics and no separate initialization kernel: `init` (the value of a
/// preceding fill, may be null) or the output's old value seeds the result.
static void emitWholeColumnReduce(RewriterBase &b, linalg::GenericOp op,
                                  const ColumnReduceInfo &info,
                                  ColumnReduceStrategyAttr s, Value init,
                                  unsigned warpSize) {
  unsigned vec = info.vec;
  int64_t colThreads = s.getColumnThreads();
  int64_t colChunks = info.cols / vec;
  int64_t colBlocks = llvm::divideCeil(colChunks, colThreads);
  int64_t threads = s.getThreads();
  int64_t rowLanes = threads / colThreads;
  int64_t numWarps = threads / warpSize;
  int64_t unroll = s.getUnroll();
  Location loc = op.getLoc();
  OpOperand &out = op.getDpsInitsMutable()[0];
  Block *body = op.getBody();
  Type accType = body->getArgument(op.getNumDpsInputs()).getType();
  Type xType = exchangeType(accType);
  auto smemType = MemRefType::get(
      {numWarps, colThreads * vec}, xType, AffineMap(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  b.setInsertionPoint(op);
  gpu::LaunchOp launch =
      createLaunch(b, loc, {colBlocks}, {threads}, TypeRange{smemType});
  Value smem = launch.getWorkgroupAttributions().front();
  Value tid = launch.getThreadIds().x;
  Value ct = arith::RemUIOp::create(b, loc, tid, cIdx(b, loc, colThreads));
  Value rl = arith::DivUIOp::create(b, loc, tid, cIdx(b, loc, colThreads));
  Value chunk = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                            cIdx(b, loc, colThreads)),
      ct);
  // Threads past the last column load the last chunk again (every thread
  // takes part in the barrier) and store nothing.
  if (colBlocks * colThreads != colChunks)
    chunk = arith::MinUIOp::create(b, loc, chunk, cIdx(b, loc, colChunks - 1));
  Value col0 = arith::MulIOp::create(b, loc, chunk, cIdx(b, loc, vec));
  SmallVector<Value> inits(vec,
                           arith::getIdentityValue(info.kind, accType, b, loc));
  int64_t step = rowLanes * unroll;
  bool exact = info.rows % step == 0;
  auto loop = scf::ForOp::create(
      b, loc, cIdx(b, loc, 0), cIdx(b, loc, info.rows), cIdx(b, loc, step),
      inits, [&](OpBuilder &nb, Location, Value r0, ValueRange accIn) {
        SmallVector<Value> accs(accIn.begin(), accIn.end());
        Value base = arith::AddIOp::create(nb, loc, r0, rl);
        for (int64_t u = 0; u < unroll; ++u) {
          Value r =
              arith::AddIOp::create(nb, loc, base, cIdx(nb, loc, u * rowLanes));
          Value ok;
          if (!exact) {
            ok = arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::ult, r,
                                       cIdx(nb, loc, info.rows));
            r = arith::SelectOp::create(nb, loc, ok, r, cIdx(nb, loc, 0));
          }
          accumulateRow(nb, loc, op, r, col0, vec, ok, accs);
        }
        scf::YieldOp::create(nb, loc, accs);
      });
  // Threads of a warp with the same column chunk differ in the lane bits
  // above log2(colThreads): fold those with xor shuffles, then one partial
  // per warp goes through shared memory.
  Value lane = arith::RemUIOp::create(b, loc, tid, cIdx(b, loc, warpSize));
  Value warp = arith::DivUIOp::create(b, loc, tid, cIdx(b, loc, warpSize));
  Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lane,
                                       cIdx(b, loc, colThreads));
  SmallVector<Value> partials;
  for (unsigned l = 0; l < vec; ++l) {
    Value v = loop.getResult(l);
    if (xType != accType)
      v = arith::ExtFOp::create(b, loc, xType, v);
    for (int64_t off = warpSize / 2; off >= colThreads; off /= 2) {
      auto shfl = gpu::ShuffleOp::create(b, loc, v, off, warpSize,
                                         gpu::ShuffleMode::XOR);
      v = arith::getReductionOp(info.kind, b, loc, v, shfl.getShuffleResult());
    }
    partials.push_back(v);
  }
  {
    OpBuilder::InsertionGuard guard(b);
    auto ifOp = scf::IfOp::create(b, loc, leader, false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value slot0 = arith::MulIOp::create(b, loc, ct, cIdx(b, loc, vec));
    for (unsigned l = 0; l < vec; ++l) {
      Value slot = arith::AddIOp::create(b, loc, slot0, cIdx(b, loc, l));
      memref::StoreOp::create(b, loc, partials[l], smem,
                              ValueRange{warp, slot});
    }
  }
  gpu::BarrierOp::create(b, loc);
  // The first colThreads * vec threads each finish one column.
  Value c = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                            cIdx(b, loc, colThreads * vec)),
      tid);
  Value owns = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid,
                                     cIdx(b, loc, colThreads * vec));
  if (colBlocks * colThreads * vec != info.cols)
    owns = arith::AndIOp::create(
        b, loc, owns,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, c,
                              cIdx(b, loc, info.cols)));
  auto ifOp = scf::IfOp::create(b, loc, owns, false);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  Value total = arith::getIdentityValue(info.kind, xType, b, loc);
  for (int64_t w = 0; w < numWarps; ++w) {
    Value x =
        memref::LoadOp::create(b, loc, smem, ValueRange{cIdx(b, loc, w), tid});
    total = arith::getReductionOp(info.kind, b, loc, total, x);
  }
  if (xType != accType)
    total = arith::TruncFOp::create(b, loc, accType, total);
  Value seed = init ? init
                    : memref::LoadOp::create(b, loc, out.get(), ValueRange{c})
                          .getResult();
  Value result = arith::getReductionOp(info.kind, b, loc, seed, total);
  memref::StoreOp::create(b, loc, result, out.get(), ValueRange{c});
}

/// Row-sliced form for outputs too narrow to fill the GPU by columns: each
/// thread owns `vec` columns, each block a slice of rows; partials are
/// combined into the (initialized) output with atomics.
static void emitAtomicColumnReduce(RewriterBase &b, linalg::GenericOp op,
                                   const ColumnReduceInfo &info,
                                   ColumnReduceStrategyAttr s) {
  std::optional<arith::AtomicRMWKind> atomic = atomicKindFor(info.kind);
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
  Value chunk = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                            cIdx(b, loc, threads)),
      launch.getThreadIds().x);
  if (colBlocks * threads != colChunks) {
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, chunk,
                                     cIdx(b, loc, colChunks));
    auto ifOp = scf::IfOp::create(b, loc, ok, false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  }
  Value col0 = arith::MulIOp::create(b, loc, chunk, cIdx(b, loc, vec));
  Value rowStart = arith::MulIOp::create(b, loc, launch.getBlockIds().y,
                                         cIdx(b, loc, rowsPerBlock));
  Value rowEnd = arith::MinUIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, rowStart, cIdx(b, loc, rowsPerBlock)),
      cIdx(b, loc, rowsTotal));
  Block *body = op.getBody();
  Type accType = body->getArgument(op.getNumDpsInputs()).getType();
  SmallVector<Value> inits(vec,
                           arith::getIdentityValue(info.kind, accType, b, loc));
  // Unrolled so that each thread has `columnUnroll` independent loads in
  // flight; rows past the slice are clamped for the load and masked out of
  // the accumulation.
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
          accumulateRow(nb, loc, op, rc, col0, vec, ok, accs);
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

void kf::emitColumnReduceKernel(RewriterBase &b, linalg::GenericOp op,
                                linalg::GenericOp fill,
                                ColumnReduceStrategyAttr s,
                                const KernelTargetInfo &target) {
  std::string why;
  // checkColumnReduceStrategy proved that it matches.
  ColumnReduceInfo info = *matchColumnReduce(op, target, why);
  info.vec = s.getVector();
  if (s.getForm() == ColumnReduceForm::WholeColumn)
    return emitWholeColumnReduce(
        b, op, info, s, fill ? getFillValue(fill) : Value(), target.warpSize);
  emitAtomicColumnReduce(b, op, info, s);
}
