//===- WidenRecords.cpp - records and their fields as one loop -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-widen-records. Interleaved small records
// (rotary embeddings' pairs, complex numbers, RGBA pixels) reach linalg as
// a short innermost dim of K fields that the op reads at constant indices
// (x[..., q, 0] and x[..., q, 1]) and writes whole. Kernel formation
// vectorizes along the innermost loop, so a thread held one record: K
// lanes, each field loaded by its own narrow access (2-byte loads for bf16
// pairs) and the per-record operands (cos/sin tables) once per record.
//
// An all-parallel linalg.generic on tensors whose last loop r (K fields,
// 2 <= K <= 16, a power of two) and the loop q before it (the records) are
// read only in these forms:
//   - whole records: the operand's last two dims are (q, r), extents (Q, K);
//   - fields: (q, c) for a constant c < K, extents (Q, K);
//   - per record: q last, r unused (a table per record);
//   - neither q nor r;
// with every output a whole-record operand and at least one field or
// per-record read, iterates over records and fields as one loop e of Q * K
// (q = e floordiv K, r = e mod K): record operands are collapsed to
// [..., Q * K] (field c at (e floordiv K) * K + c), per-record operands
// read at e floordiv K, linalg.index of q and r recomputed from e, results
// expanded back. Values are unchanged. Kernel formation then gives a thread
// a vector of several whole records: one aligned 16-byte window serves all
// the lanes' reads of each field and of the per-record tables.
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTWIDENRECORDSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

namespace {
/// How an operand reads the records (q) and fields (r) loops.
enum class RecordUse { Whole, Field, PerRecord, None };
} // namespace

/// How `map` of an operand of type `t` uses loops q and r = q + 1 of
/// extents (Q, K), or failure with `why`.
static FailureOr<RecordUse> classifyUse(AffineMap map, Type t, unsigned q,
                                        int64_t Q, int64_t K,
                                        std::string &why) {
  unsigned r = q + 1;
  auto shaped = dyn_cast<ShapedType>(t);
  unsigned n = map.getNumResults();
  auto isDim = [](AffineExpr e, unsigned d) {
    auto de = dyn_cast<AffineDimExpr>(e);
    return de && de.getPosition() == d;
  };
  // q and r only in the positions the form names.
  auto usedBefore = [&](unsigned upTo) {
    for (unsigned i = 0; i < upTo; ++i)
      if (map.getResult(i).isFunctionOfDim(q) ||
          map.getResult(i).isFunctionOfDim(r))
        return true;
    return false;
  };
  if (!map.isFunctionOfDim(q) && !map.isFunctionOfDim(r))
    return RecordUse::None;
  if (!shaped || n == 0) {
    why = "an operand is not a tensor";
    return failure();
  }
  ArrayRef<int64_t> shape = shaped.getShape();
  if (n >= 2 && isDim(map.getResult(n - 2), q) && !usedBefore(n - 2) &&
      shape[n - 2] == Q && shape[n - 1] == K) {
    if (isDim(map.getResult(n - 1), r))
      return RecordUse::Whole;
    if (auto c = dyn_cast<AffineConstantExpr>(map.getResult(n - 1));
        c && c.getValue() >= 0 && c.getValue() < K)
      return RecordUse::Field;
  }
  if (isDim(map.getResult(n - 1), q) && !usedBefore(n - 1) &&
      !map.isFunctionOfDim(r))
    return RecordUse::PerRecord;
  why = "an operand reads the records or their fields in another order";
  return failure();
}

/// Dims of a rank-`rank` record operand with the last two merged.
static SmallVector<ReassociationIndices> getRecordAssoc(unsigned rank) {
  SmallVector<ReassociationIndices> assoc;
  for (unsigned d = 0; d + 2 < rank; ++d)
    assoc.push_back({(int64_t)d});
  assoc.push_back({(int64_t)rank - 2, (int64_t)rank - 1});
  return assoc;
}

/// Rewrites `g` (checked by the caller) with loops q and q + 1 as one.
static void widen(RewriterBase &rewriter, linalg::GenericOp g, unsigned q,
                  int64_t K, ArrayRef<RecordUse> uses) {
  MLIRContext *ctx = g.getContext();
  Location loc = g.getLoc();
  unsigned nLoops = g.getNumLoops();
  AffineExpr e = getAffineDimExpr(q, ctx);
  AffineExpr rec = e.floorDiv(K);
  // Old dims in terms of the new ones (r = q + 1 is the last loop).
  SmallVector<AffineExpr> repl;
  for (unsigned d = 0; d < q; ++d)
    repl.push_back(getAffineDimExpr(d, ctx));
  repl.push_back(rec);
  repl.push_back(e % K);
  rewriter.setInsertionPoint(g);
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  for (auto [i, operand] : llvm::enumerate(g->getOpOperands())) {
    Value v = operand.get();
    AffineMap map = g.getMatchingIndexingMap(&operand);
    RecordUse use = uses[i];
    if (use == RecordUse::Whole || use == RecordUse::Field) {
      auto type = cast<RankedTensorType>(v.getType());
      unsigned rank = type.getRank();
      v = tensor::CollapseShapeOp::create(rewriter, loc, v,
                                          getRecordAssoc(rank));
      SmallVector<AffineExpr> results;
      for (unsigned k = 0; k + 2 < rank; ++k)
        results.push_back(map.getResult(k).replaceDims(repl));
      results.push_back(
          use == RecordUse::Whole
              ? e
              : rec * K + cast<AffineConstantExpr>(map.getResults().back())
                              .getValue());
      map = AffineMap::get(nLoops - 1, 0, results, ctx);
    } else {
      map = AffineMap::get(nLoops - 1, 0,
                           llvm::map_to_vector(map.getResults(),
                                               [&](AffineExpr x) {
                                                 return x.replaceDims(repl);
                                               }),
                           ctx);
    }
    operands.push_back(v);
    maps.push_back(map);
  }
  unsigned nIn = g.getNumDpsInputs();
  SmallVector<Type> resultTypes;
  for (Value init : ArrayRef(operands).drop_front(nIn))
    resultTypes.push_back(init.getType());
  auto fresh = linalg::GenericOp::create(
      rewriter, loc, resultTypes, ArrayRef(operands).take_front(nIn),
      ArrayRef(operands).drop_front(nIn), maps,
      SmallVector<utils::IteratorType>(nLoops - 1,
                                       utils::IteratorType::parallel));
  fresh->setDiscardableAttrs(g->getDiscardableAttrDictionary());
  rewriter.inlineRegionBefore(g.getRegion(), fresh.getRegion(),
                              fresh.getRegion().begin());
  // linalg.index of q and r from e.
  Block *body = fresh.getBody();
  for (linalg::IndexOp idx :
       llvm::make_early_inc_range(body->getOps<linalg::IndexOp>())) {
    unsigned d = idx.getDim();
    if (d < q)
      continue;
    rewriter.setInsertionPoint(idx);
    Value ev = linalg::IndexOp::create(rewriter, idx.getLoc(), q);
    Value k = arith::ConstantIndexOp::create(rewriter, idx.getLoc(), K);
    Value repl = d == q ? arith::DivUIOp::create(rewriter, idx.getLoc(), ev, k)
                              .getResult()
                        : arith::RemUIOp::create(rewriter, idx.getLoc(), ev, k)
                              .getResult();
    rewriter.replaceOp(idx, repl);
  }
  rewriter.setInsertionPointAfter(fresh);
  SmallVector<Value> results;
  for (auto [res, old] : llvm::zip(fresh->getResults(), g->getResults())) {
    auto type = cast<RankedTensorType>(old.getType());
    results.push_back(tensor::ExpandShapeOp::create(
        rewriter, loc, type, res, getRecordAssoc(type.getRank())));
  }
  rewriter.replaceOp(g, results);
}

namespace {
struct MemoptWidenRecordsPass final
    : memopt::impl::MemoptWidenRecordsPassBase<MemoptWidenRecordsPass> {
  void runOnOperation() override {
    struct Candidate {
      unsigned q;
      int64_t Q, K;
      SmallVector<RecordUse> uses;
      bool narrow;
    };
    SmallVector<linalg::GenericOp> order;
    llvm::MapVector<Operation *, Candidate> eligible;
    getOperation().walk([&](linalg::GenericOp g) {
      if (!g.hasPureTensorSemantics() || g.getNumLoops() < 2 ||
          g.getNumReductionLoops() != 0)
        return;
      unsigned n = g.getNumLoops();
      SmallVector<int64_t> ranges = g.getStaticLoopRanges();
      unsigned q = n - 2;
      int64_t Q = ranges[q], K = ranges[n - 1];
      if (ShapedType::isDynamic(Q) || ShapedType::isDynamic(K) || K < 2 ||
          K > 16 || !llvm::isPowerOf2_64(K))
        return;
      std::string why;
      Candidate c{q, Q, K, {}, false};
      bool ok = true;
      for (OpOperand &operand : g->getOpOperands()) {
        FailureOr<RecordUse> use =
            classifyUse(g.getMatchingIndexingMap(&operand),
                        operand.get().getType(), q, Q, K, why);
        if (succeeded(use) && g.isDpsInit(&operand) &&
            *use != RecordUse::Whole) {
          why = "an output is not written as whole records";
          use = failure();
        }
        if (failed(use)) {
          ok = false;
          break;
        }
        c.narrow |= *use == RecordUse::Field || *use == RecordUse::PerRecord;
        c.uses.push_back(*use);
      }
      if (!ok) {
        if (llvm::any_of(g.getIndexingMapsArray(), [](AffineMap m) {
              return m.getNumResults() &&
                     isa<AffineConstantExpr>(m.getResults().back());
            }))
          g.emitRemark("records of ")
              << K << " fields keep one record per vector: " << why;
        return;
      }
      eligible[g] = std::move(c);
    });
    // Ops that read fields or per-record values are narrow; ops over whole
    // records producing or consuming theirs follow them (so that they
    // still fuse over the same loops) and so on.
    DenseSet<Operation *> chosen;
    SmallVector<Operation *> work;
    for (auto &[op, c] : eligible)
      if (c.narrow) {
        chosen.insert(op);
        work.push_back(op);
      }
    auto visit = [&](Operation *other, int64_t K) {
      auto it = eligible.find(other);
      if (it != eligible.end() && it->second.K == K &&
          chosen.insert(other).second)
        work.push_back(other);
    };
    while (!work.empty()) {
      Operation *op = work.pop_back_val();
      int64_t K = eligible[op].K;
      for (Value v : op->getOperands())
        if (Operation *def = v.getDefiningOp())
          visit(def, K);
      for (Operation *user : op->getUsers())
        visit(user, K);
    }
    IRRewriter rewriter(&getContext());
    for (auto &[op, c] : eligible) {
      if (!chosen.contains(op))
        continue;
      auto g = cast<linalg::GenericOp>(op);
      if (c.narrow)
        g.emitRemark("records of ")
            << c.K << " fields and their " << c.Q
            << " records iterated as one loop of " << c.Q * c.K
            << ": a vector covers whole records";
      else
        g.emitRemark("records of ")
            << c.K << " fields iterated with their records as one loop of "
            << c.Q * c.K << ", as the ops it shares records with";
      widen(rewriter, g, c.q, c.K, c.uses);
    }
  }
};
} // namespace
