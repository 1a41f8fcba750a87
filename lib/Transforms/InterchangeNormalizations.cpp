//===- InterchangeNormalizations.cpp - reduced loop innermost -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-interchange-normalizations. A normalization
// over a loop that is not the innermost one (softmax over dim 0, LayerNorm
// over the batch dim, a softmax over the middle dim of a 3-D tensor) is, on
// buffers, a run of ops over one iteration space: reductions over that
// loop k and elementwise ops that read their results broadcast along k.
// Each reduction would be a column kernel of its own, reading the input
// again. Here every op of the run iterates over the same loops with k moved
// innermost; the buffers they share with the rest of the program are read
// and written through permuted views (memref.transpose), and the buffers
// only the run uses are allocated in the permuted order. The run then forms
// one row group whose rows are the points of the contiguous dim, laid out
// side by side (isLaidOutAcrossRows): the interleaved row kernel reads the
// input once.
//
// Applied only where that kernel holds a row of the reduced loop on chip
// (planInterleavedRows); otherwise a remark says why and that each
// reduction reads the input again.
//
//===----------------------------------------------------------------------===//

#include "KernelFormation/KnobOptions.h"
#include "KernelFormation/Strategies.h"

#include "memopt/Analysis/Traffic.h"
#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTINTERCHANGENORMALIZATIONSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

namespace {
/// A run of ops over one iteration space `ranges` reducing loop `k`.
struct NormRun {
  SmallVector<linalg::GenericOp> ops;
  SmallVector<int64_t> ranges;
  unsigned k = 0;
};
} // namespace

/// The loop a reduction of loops [..., k, ..., parallel innermost] reduces,
/// with its output indexed by the other loops in order.
static std::optional<unsigned> getColumnReducedLoop(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumReductionLoops() != 1 ||
      op.getNumDpsInits() < 1)
    return std::nullopt;
  auto iters = op.getIteratorTypesArray();
  unsigned n = iters.size();
  unsigned k = 0;
  while (iters[k] != utils::IteratorType::reduction)
    ++k;
  if (k + 1 == n)
    return std::nullopt;
  for (OpOperand &out : op.getDpsInitsMutable()) {
    AffineMap m = op.getMatchingIndexingMap(&out);
    if (m.getNumResults() != n - 1)
      return std::nullopt;
    for (unsigned i = 0; i + 1 < n; ++i) {
      auto d = dyn_cast<AffineDimExpr>(m.getResult(i));
      if (!d || d.getPosition() != (i < k ? i : i + 1))
        return std::nullopt;
    }
  }
  return k;
}

/// Whether `op` belongs to a run over `ranges` reducing `k`: all parallel
/// over those loops, or reducing k alone.
static bool fitsRun(linalg::GenericOp op, ArrayRef<int64_t> ranges,
                    unsigned k) {
  if (!op.hasPureBufferSemantics() || op.getStaticLoopRanges() != ranges)
    return false;
  if (op.getNumReductionLoops() == 0)
    return true;
  std::optional<unsigned> r = getColumnReducedLoop(op);
  return r && *r == k;
}

/// Whether `op` runs over the parallel loops of the run alone (a fill of a
/// reduction's output, the mean from a sum): it needs no interchange.
static bool isOverReducedSpace(linalg::GenericOp op, ArrayRef<int64_t> ranges,
                               unsigned k) {
  if (!op.hasPureBufferSemantics() || op.getNumReductionLoops() != 0)
    return false;
  SmallVector<int64_t> rest(ranges);
  rest.erase(rest.begin() + k);
  return op.getStaticLoopRanges() == rest;
}

/// Whether the run normalizes: some op over the whole space reads, after
/// a reduction of the run, a buffer that reduction wrote.
static bool isNormalization(const NormRun &run) {
  DenseSet<Value> reduced;
  for (linalg::GenericOp op : run.ops) {
    if (op.getNumLoops() == run.ranges.size())
      for (OpOperand *in : op.getDpsInputOperands())
        if (reduced.contains(getViewRoot(in->get())))
          return true;
    if (op.getNumReductionLoops() == 1)
      for (Value out : op.getDpsInits())
        reduced.insert(getViewRoot(out));
  }
  return false;
}

/// Whether the buffers the run reads along the whole space are contiguous
/// along its innermost loop (what the interchange makes coalesced across
/// rows).
static bool isContiguousInnermost(const NormRun &run, std::string &why) {
  unsigned n = run.ranges.size();
  for (linalg::GenericOp op : run.ops) {
    if (op.getNumLoops() != n)
      continue;
    for (OpOperand &operand : op->getOpOperands()) {
      auto mt = dyn_cast<MemRefType>(operand.get().getType());
      if (!mt)
        continue;
      AffineMap m = op.getMatchingIndexingMap(&operand);
      if (!m.isFunctionOfDim(n - 1))
        continue;
      auto last = dyn_cast<AffineDimExpr>(m.getResults().back());
      if (!mt.getLayout().isIdentity() || !last ||
          last.getPosition() != n - 1) {
        why = "a buffer is not contiguous along the innermost loop";
        return false;
      }
    }
  }
  return true;
}

/// Whether the row family can take the run once interchanged: each
/// reduction a single-output one with a combiner it knows, and no op of the
/// run overwriting a buffer an earlier one read (in place).
static bool isRowGroupable(const NormRun &run, std::string &why) {
  DenseSet<Value> read;
  for (linalg::GenericOp op : run.ops) {
    if (op.getNumReductionLoops() == 1 &&
        (op.getNumDpsInits() != 1 || failed(kf::matchCombiner(op, why))))
      return false;
    for (Value out : op.getDpsInits())
      if (read.contains(getViewRoot(out))) {
        why = "it updates a buffer in place";
        return false;
      }
    for (OpOperand *in : op.getDpsInputOperands())
      read.insert(getViewRoot(in->get()));
  }
  return true;
}

/// Whether `root` is an allocation that only the ops of `run` use (and
/// deallocations).
static bool isRunPrivate(Value root, const NormRun &run) {
  if (!root.getDefiningOp<memref::AllocOp>())
    return false;
  DenseSet<Operation *> members(run.ops.begin(), run.ops.end());
  return llvm::all_of(root.getUsers(), [&](Operation *u) {
    return members.contains(u) || isa<memref::DeallocOp>(u);
  });
}

/// Moves loop k of every op over the whole space innermost and gives each
/// permuted operand an identity map over a permuted buffer: a new
/// allocation for buffers only the run uses, a memref.transpose view of
/// the others (created once per buffer and permutation).
static LogicalResult interchangeRun(RewriterBase &rewriter, NormRun &run) {
  unsigned n = run.ranges.size();
  SmallVector<unsigned> order;
  for (unsigned i = 0; i < n; ++i)
    if (i != run.k)
      order.push_back(i);
  order.push_back(run.k);
  MLIRContext *ctx = rewriter.getContext();
  DenseMap<std::pair<Value, AffineMap>, Value> permuted;
  for (linalg::GenericOp &op : run.ops) {
    if (op.getNumLoops() != n)
      continue;
    FailureOr<linalg::GenericOp> swapped =
        linalg::interchangeGenericOp(rewriter, op, order);
    if (failed(swapped))
      return failure();
    op = *swapped;
  }
  // A buffer only the run uses is reallocated in the permuted order when
  // every op reads and writes it through the same permutation (over the
  // whole space); otherwise views (several views of one buffer are fine).
  DenseMap<Value, SmallVector<AffineMap>> privateMaps;
  for (linalg::GenericOp op : run.ops)
    for (OpOperand &operand : op->getOpOperands())
      if (isa<MemRefType>(operand.get().getType()))
        privateMaps[operand.get()].push_back(
            op.getNumLoops() == n ? op.getMatchingIndexingMap(&operand)
                                  : AffineMap());
  auto reallocates = [&](Value v, AffineMap m) {
    auto alloc = v.getDefiningOp<memref::AllocOp>();
    return alloc && isRunPrivate(v, run) &&
           cast<MemRefType>(v.getType()).getLayout().isIdentity() &&
           llvm::all_of(privateMaps[v], [&](AffineMap u) { return u == m; });
  };
  for (linalg::GenericOp op : run.ops) {
    if (op.getNumLoops() != n)
      continue;
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    bool changed = false;
    for (OpOperand &operand : op->getOpOperands()) {
      Value v = operand.get();
      auto mt = dyn_cast<MemRefType>(v.getType());
      AffineMap m = maps[operand.getOperandNumber()];
      if (!mt || !m.isPermutation() || m.isIdentity())
        continue;
      auto key = std::make_pair(v, m);
      Value p = permuted.lookup(key);
      if (!p) {
        // Buffer dim j is loop m(j): dim i of the permuted buffer is
        // buffer dim m^-1(i).
        AffineMap inverse = inversePermutation(m);
        OpBuilder::InsertionGuard guard(rewriter);
        if (auto alloc = v.getDefiningOp<memref::AllocOp>();
            alloc && reallocates(v, m)) {
          SmallVector<int64_t> shape;
          for (unsigned i = 0; i < n; ++i)
            shape.push_back(mt.getDimSize(inverse.getDimPosition(i)));
          rewriter.setInsertionPoint(alloc);
          p = memref::AllocOp::create(
              rewriter, alloc.getLoc(),
              MemRefType::get(shape, mt.getElementType(), AffineMap(),
                              mt.getMemorySpace()),
              alloc.getAlignmentAttr());
        } else {
          if (auto arg = dyn_cast<BlockArgument>(v))
            rewriter.setInsertionPointToStart(arg.getOwner());
          else
            rewriter.setInsertionPointAfterValue(v);
          p = memref::TransposeOp::create(rewriter, op.getLoc(), v,
                                          AffineMapAttr::get(inverse));
        }
        permuted[key] = p;
      }
      rewriter.modifyOpInPlace(op, [&] { operand.set(p); });
      maps[operand.getOperandNumber()] =
          AffineMap::getMultiDimIdentityMap(n, ctx);
      changed = true;
    }
    if (changed)
      rewriter.modifyOpInPlace(op, [&] {
        op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      });
  }
  // Allocations replaced by their permuted form (deallocations go too).
  for (auto &[key, p] : permuted) {
    auto alloc = key.first.getDefiningOp<memref::AllocOp>();
    if (!alloc || !p.getDefiningOp<memref::AllocOp>())
      continue;
    for (Operation *u : llvm::make_early_inc_range(alloc->getUsers()))
      if (isa<memref::DeallocOp>(u))
        rewriter.modifyOpInPlace(u, [&] { u->setOperand(0, p); });
    if (alloc->use_empty())
      rewriter.eraseOp(alloc);
  }
  return success();
}

namespace {
struct MemoptInterchangeNormalizationsPass final
    : memopt::impl::MemoptInterchangeNormalizationsPassBase<
          MemoptInterchangeNormalizationsPass> {
  using Base::Base;

  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    if (func.isExternal())
      return;
    MEMOPT_KERNEL_TARGET_INFO(target, func);
    // Runs of consecutive generics (allocations, views and constants may
    // sit between them; anything else ends a run) from a column reduction.
    SmallVector<NormRun> runs;
    for (Block &block : func.getFunctionBody()) {
      NormRun cur;
      SmallVector<linalg::GenericOp> pending; // ops over the run's space
      auto flush = [&] {
        if (!cur.ops.empty() && isNormalization(cur))
          runs.push_back(cur);
        cur = NormRun();
      };
      for (Operation &o : block) {
        auto op = dyn_cast<linalg::GenericOp>(o);
        if (!op) {
          if (!isa<memref::AllocOp, memref::DeallocOp, arith::ConstantOp,
                   memref::ExpandShapeOp, memref::CollapseShapeOp,
                   memref::CastOp>(o))
            flush();
          continue;
        }
        if (!cur.ops.empty() && (fitsRun(op, cur.ranges, cur.k) ||
                                 isOverReducedSpace(op, cur.ranges, cur.k))) {
          cur.ops.push_back(op);
          continue;
        }
        flush();
        std::optional<unsigned> k = getColumnReducedLoop(op);
        if (!k)
          continue;
        cur.ranges = op.getStaticLoopRanges();
        cur.k = *k;
        // The fills just before it (its outputs' initial values) join.
        linalg::GenericOp prev = op->getPrevNode()
                                     ? dyn_cast<linalg::GenericOp>(
                                           op->getPrevNode())
                                     : linalg::GenericOp();
        if (prev && isOverReducedSpace(prev, cur.ranges, cur.k) &&
            llvm::is_contained(op.getDpsInits(), prev.getDpsInits()[0]))
          cur.ops.push_back(prev);
        cur.ops.push_back(op);
      }
      flush();
    }
    IRRewriter rewriter(&getContext());
    for (NormRun &run : runs) {
      size_t seedAt = llvm::find_if(run.ops, [](linalg::GenericOp op) {
                        return op.getNumReductionLoops() == 1;
                      }) -
                      run.ops.begin();
      linalg::GenericOp seed = run.ops[seedAt];
      if (llvm::any_of(run.ranges, [](int64_t r) { return r <= 0; }))
        continue;
      int64_t rowLength = run.ranges[run.k], rows = 1;
      for (auto [i, r] : llvm::enumerate(run.ranges))
        if (i != run.k)
          rows *= r;
      std::string why;
      if (!isContiguousInnermost(run, why) || !isRowGroupable(run, why) ||
          failed(kf::planInterleavedRows(rowLength, rows, target, why))) {
        seed.emitRemark() << "normalization over loop " << run.k
                          << " not interchanged (" << why
                          << "): each of its reductions reads the input "
                             "again";
        continue;
      }
      if (failed(interchangeRun(rewriter, run))) {
        seed.emitError("cannot interchange the loops of this normalization");
        return signalPassFailure();
      }
      run.ops[seedAt].emitRemark() << "normalization over loop " << run.k << " ("
                        << rowLength << " elements) interchanged: its "
                        << run.ops.size()
                        << " ops iterate with that loop innermost, over "
                           "rows of the contiguous dim side by side";
    }
  }
};
} // namespace
