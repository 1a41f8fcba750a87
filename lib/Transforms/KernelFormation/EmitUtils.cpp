//===- EmitUtils.cpp - builders shared by kernel strategies -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements the builders every kernel strategy emits with (see
// EmitUtils.h).
//
//===----------------------------------------------------------------------===//

#include "EmitUtils.h"

#include "memopt/Dialect/MemoptDialect.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/bit.h"

#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

Value kf::cIdx(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

bool kf::isRowShaped(Value v, AffineMap map, const EmitState &st) {
  auto mt = dyn_cast<MemRefType>(v.getType());
  return mt && mt.getLayout().isIdentity() && mt.hasStaticShape() &&
         map.isIdentity() && mt.getShape() == ArrayRef<int64_t>(st.rowShape);
}

Value kf::createFlatView(OpBuilder &b, Location loc, Value v) {
  auto mt = cast<MemRefType>(v.getType());
  if (!mt.getLayout().isIdentity()) {
    // Element (i...) at sum i_k * stride_k of a view from the same offset.
    auto [strides, offset] = mt.getStridesAndOffset();
    int64_t span = 1;
    for (auto [size, stride] : llvm::zip(mt.getShape(), strides))
      span += (size - 1) * stride;
    auto flatType = MemRefType::get(
        {span}, mt.getElementType(),
        StridedLayoutAttr::get(b.getContext(), offset, {1}),
        mt.getMemorySpace());
    return memref::ReinterpretCastOp::create(b, loc, flatType, v, offset,
                                             ArrayRef<int64_t>{span},
                                             ArrayRef<int64_t>{1});
  }
  if (mt.getRank() == 1)
    return v;
  // A reinterpret_cast rather than collapse_shape: the GPU lowering turns
  // it into LLVM directly (collapse_shape needs expand-strided-metadata).
  auto flatType = MemRefType::get({mt.getNumElements()}, mt.getElementType(),
                                  AffineMap(), mt.getMemorySpace());
  return memref::ReinterpretCastOp::create(
      b, loc, flatType, v, /*offset=*/0,
      ArrayRef<int64_t>{mt.getNumElements()}, ArrayRef<int64_t>{1});
}

Value kf::getFlatIndex(OpBuilder &b, Location loc, MemRefType t,
                       ValueRange idx) {
  auto [strides, offset] = t.getStridesAndOffset();
  Value flat;
  for (auto [i, stride] : llvm::zip(idx, strides)) {
    Value term = stride == 1 ? i
                             : arith::MulIOp::create(b, loc, i,
                                                     cIdx(b, loc, stride))
                                   .getResult();
    flat = flat ? arith::AddIOp::create(b, loc, flat, term).getResult() : term;
  }
  return flat ? flat : cIdx(b, loc, 0);
}

Value kf::getFlatView(OpBuilder &b, EmitState &st, Value v) {
  auto it = st.flatViews.find(v);
  if (it != st.flatViews.end())
    return it->second;
  OpBuilder eb = OpBuilder::atBlockBegin(st.kernelEntry);
  Value flat = createFlatView(eb, st.loc, v);
  st.flatViews[v] = flat;
  return flat;
}

SmallVector<Value> kf::loadLanes(OpBuilder &b, Location loc, Value memref,
                                 ValueRange idx, unsigned vec) {
  if (vec == 1)
    return {memref::LoadOp::create(b, loc, memref, idx)};
  Type et = cast<MemRefType>(memref.getType()).getElementType();
  Value v = vector::LoadOp::create(
      b, loc, VectorType::get({(int64_t)vec}, et), memref, idx,
      /*nontemporal=*/false, llvm::MaybeAlign(vec * getElementBytes(et)));
  SmallVector<Value> lanes;
  for (unsigned l = 0; l < vec; ++l)
    lanes.push_back(vector::ExtractOp::create(b, loc, v, l));
  return lanes;
}

AcrossRowsAccess kf::getAcrossRowsAccess(Value v, AffineMap map,
                                         unsigned numLoops, int64_t count) {
  AcrossRowsAccess access;
  if (numLoops < 2 || !map.isFunctionOfDim(numLoops - 2)) {
    access.kind = AcrossRowsAccess::Same;
    return access;
  }
  auto mt = dyn_cast<MemRefType>(v.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!mt || failed(mt.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) || offset % count != 0)
    return access;
  std::optional<unsigned> dim;
  for (auto [i, e] : llvm::enumerate(map.getResults())) {
    auto d = dyn_cast<AffineDimExpr>(e);
    if (d && d.getPosition() == numLoops - 2 && !dim) {
      dim = i;
      continue;
    }
    if (e.isFunctionOfDim(numLoops - 2) || ShapedType::isDynamic(strides[i]) ||
        strides[i] % count != 0)
      return access;
  }
  if (!dim || strides[*dim] != 1)
    return access;
  access.kind = AcrossRowsAccess::Vector;
  access.dim = *dim;
  return access;
}

/// The lanes of operand `operand` for every replica of `st.replicas`, one
/// load serving all of them (see RowReplicas), or none where the access
/// goes element by element.
static SmallVector<SmallVector<Value>>
loadAcrossRows(OpBuilder &b, EmitState &st, linalg::GenericOp op,
               OpOperand &operand, unsigned numChunks) {
  unsigned count = st.replicas->count;
  Value v = operand.get();
  AffineMap map = op.getMatchingIndexingMap(&operand);
  unsigned nLoops = op.getNumLoops();
  AcrossRowsAccess access = getAcrossRowsAccess(v, map, nLoops, count);
  // (Interleaved rows have one element a chunk, no shifted chunks and no
  // staging: checkRowStrategy.)
  if (access.kind == AcrossRowsAccess::Scalar)
    return {};
  if (access.kind == AcrossRowsAccess::Same)
    return SmallVector<SmallVector<Value>>(
        count,
        loadOperandUncached(b, st, op, operand, RowRole::Vector, numChunks));
  Location loc = st.loc;
  // Element (first + r, j) of the rows: lane r of the vector at row `first`.
  bool usesInner = map.isFunctionOfDim(nLoops - 1);
  SmallVector<SmallVector<Value>> lanes(count);
  for (unsigned c = 0; c < numChunks; ++c) {
    if (!usesInner && c > 0) {
      for (unsigned r = 0; r < count; ++r) {
        Value first = lanes[r].front();
        lanes[r].push_back(first);
      }
      continue;
    }
    Value base = usesInner ? st.chunkBase[c] : cIdx(b, loc, 0);
    if (usesInner && st.chunkValid[c]) // Out-of-row chunks read element 0.
      base = arith::SelectOp::create(b, loc, st.chunkValid[c], base,
                                     cIdx(b, loc, 0));
    SmallVector<Value> ivs(st.outerIds);
    ivs.push_back(base);
    SmallVector<Value> idx = expandIndices(b, loc, map, ivs);
    if (st.replica != 0)
      idx[access.dim] = arith::SubIOp::create(b, loc, idx[access.dim],
                                              cIdx(b, loc, st.replica));
    SmallVector<Value> across =
        loadLanes(b, loc, getFlatView(b, st, v),
                  {getFlatIndex(b, loc, cast<MemRefType>(v.getType()), idx)},
                  count);
    for (unsigned r = 0; r < count; ++r)
      lanes[r].push_back(across[r]);
  }
  return lanes;
}

SmallVector<Value> kf::loadOperand(OpBuilder &b, EmitState &st,
                                   linalg::GenericOp op, OpOperand &operand,
                                   RowRole role, unsigned numChunks) {
  Value v = operand.get();
  if (!isa<MemRefType>(v.getType()))
    return SmallVector<Value>(role == RowRole::Scalar ? 1 : numChunks * st.vec,
                              v);
  Value root = getRootBuffer(v);
  AffineMap map = op.getMatchingIndexingMap(&operand);
  if (!st.vecValues.count(root) && !st.scalarValues.count(root)) {
    auto key = std::make_tuple(v, map, role == RowRole::Scalar ? 0 : 1);
    auto it = st.loadCache.find(key);
    if (it != st.loadCache.end())
      return it->second;
    if (st.replicas && role != RowRole::Scalar) {
      SmallVector<SmallVector<Value>> &shared = st.replicas->loads[key];
      if (shared.empty())
        shared = loadAcrossRows(b, st, op, operand, numChunks);
      if (!shared.empty()) {
        st.loadCache[key] = shared[st.replica];
        return shared[st.replica];
      }
    }
    SmallVector<Value> lanes =
        loadOperandUncached(b, st, op, operand, role, numChunks);
    st.loadCache[key] = lanes;
    return lanes;
  }
  return loadOperandUncached(b, st, op, operand, role, numChunks);
}

SmallVector<Value> kf::loadOperandUncached(OpBuilder &b, EmitState &st,
                                           linalg::GenericOp op,
                                           OpOperand &operand, RowRole role,
                                           unsigned numChunks) {
  Value v = operand.get();
  Location loc = st.loc;
  Value root = getRootBuffer(v);
  unsigned nLoops = op.getNumLoops();
  AffineMap map = op.getMatchingIndexingMap(&operand);
  if (role == RowRole::Scalar) {
    if (auto it = st.scalarValues.find(root); it != st.scalarValues.end())
      return {it->second};
    SmallVector<Value> ivs(st.outerIds.begin(), st.outerIds.begin() + nLoops);
    return {memref::LoadOp::create(b, loc, v, expandIndices(b, loc, map, ivs))};
  }
  if (auto it = st.vecValues.find(root); it != st.vecValues.end())
    return it->second;
  if (auto it = st.scalarValues.find(root); it != st.scalarValues.end())
    return SmallVector<Value>(numChunks * st.vec, it->second);
  unsigned innerDim = nLoops - 1;
  bool usesInner = map.isFunctionOfDim(innerDim);
  SmallVector<Value> lanes;
  if (!usesInner) {
    // Broadcast along the row: one load serves every lane.
    SmallVector<Value> ivs(st.outerIds);
    ivs.push_back(cIdx(b, loc, 0));
    Value s =
        memref::LoadOp::create(b, loc, v, expandIndices(b, loc, map, ivs));
    return SmallVector<Value>(numChunks * st.vec, s);
  }
  auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
  bool contiguous = last && last.getPosition() == innerDim;
  if (st.shifted) {
    bool aligned = isRowShaped(v, map, st);
    for (unsigned c = 0; c < numChunks; ++c) {
      auto laneLoads = [&](OpBuilder &lb) {
        Value flat = getFlatView(lb, st, v);
        SmallVector<Value> out;
        for (unsigned l = 0; l < st.vec; ++l) {
          Value j =
              arith::AddIOp::create(lb, loc, st.chunkFlat[c], cIdx(lb, loc, l));
          j = arith::SelectOp::create(lb, loc, st.laneValid[c * st.vec + l], j,
                                      cIdx(lb, loc, 0));
          out.push_back(memref::LoadOp::create(lb, loc, flat, ValueRange{j}));
        }
        return out;
      };
      if (aligned && st.forceLanes) {
        llvm::append_range(lanes, laneLoads(b));
        continue;
      }
      if (aligned && st.chunkInBuffer.size() > c && st.chunkInBuffer[c]) {
        // The buffer's last aligned chunk may be short: lane by lane there.
        Type et = cast<MemRefType>(v.getType()).getElementType();
        auto ifOp = scf::IfOp::create(b, loc, SmallVector<Type>(st.vec, et),
                                      st.chunkInBuffer[c], true);
        {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(&ifOp.getThenRegion().front());
          scf::YieldOp::create(b, loc,
                               loadLanes(b, loc, getFlatView(b, st, v),
                                         {st.chunkFlat[c]}, st.vec));
          b.setInsertionPointToStart(&ifOp.getElseRegion().front());
          scf::YieldOp::create(b, loc, laneLoads(b));
        }
        llvm::append_range(lanes, ifOp.getResults());
        continue;
      }
      if (aligned) {
        llvm::append_range(lanes, loadLanes(b, loc, getFlatView(b, st, v),
                                            {st.chunkFlat[c]}, st.vec));
        continue;
      }
      // Other operands along the row (a broadcast vector): lane by lane,
      // lanes outside the row read element 0.
      for (unsigned l = 0; l < st.vec; ++l) {
        Value j =
            arith::AddIOp::create(b, loc, st.chunkBase[c], cIdx(b, loc, l));
        j = arith::SelectOp::create(b, loc, st.laneValid[c * st.vec + l], j,
                                    cIdx(b, loc, 0));
        SmallVector<Value> ivs(st.outerIds);
        ivs.push_back(j);
        lanes.push_back(
            memref::LoadOp::create(b, loc, v, expandIndices(b, loc, map, ivs)));
      }
    }
    return lanes;
  }
  if (st.stagedChunk) {
    auto it = st.stagedViews.find({v, map});
    if (it != st.stagedViews.end())
      return loadLanes(b, loc, it->second,
                       {st.stagedChunk, st.stagedTid, cIdx(b, loc, 0)}, st.vec);
  }
  std::optional<LaneWindow> window;
  if (!contiguous && st.vec > 1 && st.windowBytes)
    window = getLaneWindow(v, map, innerDim, st.vec,
                           st.windowBytes / getElementBytes(
                                                cast<MemRefType>(v.getType())
                                                    .getElementType()));
  for (unsigned c = 0; c < numChunks; ++c) {
    Value base = st.chunkBase[c];
    if (st.chunkValid[c]) // Out-of-row chunks read element 0 instead.
      base = arith::SelectOp::create(b, loc, st.chunkValid[c], base,
                                     cIdx(b, loc, 0));
    SmallVector<Value> ivs(st.outerIds);
    ivs.push_back(base);
    if (window) {
      // One aligned window serves every lane (the fields of a chunk's
      // records, a per-record table).
      SmallVector<Value> win =
          loadLanes(b, loc, v, expandIndices(b, loc, window->baseMap, ivs),
                    window->width);
      for (unsigned l = 0; l < st.vec; ++l)
        lanes.push_back(win[window->lane[l]]);
      continue;
    }
    if (contiguous && st.vec > 1) {
      llvm::append_range(
          lanes, loadLanes(b, loc, v, expandIndices(b, loc, map, ivs), st.vec));
      continue;
    }
    for (unsigned l = 0; l < st.vec; ++l) {
      SmallVector<Value> laneIvs(ivs);
      if (l)
        laneIvs.back() = arith::AddIOp::create(b, loc, base, cIdx(b, loc, l));
      lanes.push_back(memref::LoadOp::create(
          b, loc, v, expandIndices(b, loc, map, laneIvs)));
    }
  }
  return lanes;
}

void kf::emitOp(OpBuilder &b, EmitState &st, const GroupOp &g,
                unsigned numChunks, Value &partial) {
  linalg::GenericOp op = g.op;
  Location loc = st.loc;
  Block *body = op.getBody();
  unsigned nIn = op.getNumDpsInputs();
  SmallVector<SmallVector<Value>> ins;
  for (OpOperand *in : op.getDpsInputOperands())
    ins.push_back(loadOperand(b, st, op, *in, g.role, numChunks));
  SmallVector<SmallVector<Value>> outs;
  for (OpOperand &out : op.getDpsInitsMutable()) {
    BlockArgument arg = op.getMatchingBlockArgument(&out);
    Value root = getRootBuffer(out.get());
    if (g.role == RowRole::Reduce || g.role == RowRole::ColumnReduce) {
      outs.push_back({});
      continue;
    }
    bool internal = st.vecValues.count(root) || st.scalarValues.count(root);
    if (arg.use_empty() && !internal) {
      unsigned n = g.role == RowRole::Scalar ? 1 : numChunks * st.vec;
      outs.push_back(SmallVector<Value>(
          n, ub::PoisonOp::create(b, loc, arg.getType()).getResult()));
      continue;
    }
    outs.push_back(loadOperand(b, st, op, out, g.role, numChunks));
  }
  auto laneIvs = [&](unsigned c, unsigned l) {
    SmallVector<Value> ivs(st.outerIds);
    if (g.role != RowRole::Scalar) {
      Value base = st.chunkBase[c];
      ivs.push_back(
          l ? arith::AddIOp::create(b, loc, base, cIdx(b, loc, l)).getResult()
            : base);
    }
    ivs.resize(op.getNumLoops());
    return ivs;
  };

  if (g.role == RowRole::Scalar) {
    SmallVector<Value> args;
    for (auto &i : ins)
      args.push_back(i[0]);
    for (auto &o : outs)
      args.push_back(o[0]);
    SmallVector<Value> res = cloneBody(b, op, args, laneIvs(0, 0));
    for (auto [k, out] : llvm::enumerate(op.getDpsInitsMutable()))
      st.scalarValues[getRootBuffer(out.get())] = res[k];
    return;
  }
  if (g.role == RowRole::Vector || g.role == RowRole::ColumnReduce) {
    // A column reduction's accumulators stand for its output: this row's
    // element of each lane's column joins the lane's accumulator; lanes
    // outside the row keep theirs.
    bool column = g.role == RowRole::ColumnReduce;
    if (column && st.columnShared) {
      // Chunks outside the row read nothing (another thread's column would
      // race with its update).
      SmallVector<Value> lanes;
      Type accType = body->getArgument(nIn).getType();
      for (unsigned c = 0; c < numChunks; ++c) {
        auto loadLanes = [&](OpBuilder &lb) {
          SmallVector<Value> v;
          for (unsigned l = 0; l < st.vec; ++l)
            v.push_back(memref::LoadOp::create(
                lb, loc, st.columnShared,
                getSharedAccumulatorIndex(lb, st, op, c, l)));
          return v;
        };
        Value valid = st.chunkValid[c];
        if (!valid) {
          llvm::append_range(lanes, loadLanes(b));
          continue;
        }
        auto ifOp = scf::IfOp::create(
            b, loc, SmallVector<Type>(st.vec, accType), valid, true);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        scf::YieldOp::create(b, loc, loadLanes(b));
        b.setInsertionPointToStart(&ifOp.getElseRegion().front());
        scf::YieldOp::create(
            b, loc,
            SmallVector<Value>(st.vec, arith::getIdentityValue(
                                           g.kind, accType, b, loc)));
        llvm::append_range(lanes, ifOp.getResults());
      }
      outs = {lanes};
    } else if (column) {
      outs = {st.columnAcc[op]};
    }
    unsigned nOut = op.getNumDpsInits();
    SmallVector<SmallVector<Value>> results(nOut);
    for (unsigned c = 0; c < numChunks; ++c)
      for (unsigned l = 0; l < st.vec; ++l) {
        unsigned lane = c * st.vec + l;
        SmallVector<Value> args;
        for (auto &i : ins)
          args.push_back(i[lane]);
        for (auto &o : outs)
          args.push_back(o[lane]);
        SmallVector<Value> res = cloneBody(b, op, args, laneIvs(c, l));
        for (unsigned k = 0; k < nOut; ++k)
          results[k].push_back(res[k]);
        if (column && st.chunkValid[c])
          results[0].back() = arith::SelectOp::create(
              b, loc, st.chunkValid[c], res[0], outs[0][lane]);
      }
    if (column && st.columnShared) {
      // Each thread updates its own columns (no barrier); chunks outside
      // the row store nothing.
      for (unsigned c = 0; c < numChunks; ++c) {
        OpBuilder::InsertionGuard guard(b);
        if (Value valid = st.chunkValid[c]) {
          auto ifOp = scf::IfOp::create(b, loc, valid, false);
          b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        }
        for (unsigned l = 0; l < st.vec; ++l)
          memref::StoreOp::create(b, loc, results[0][c * st.vec + l],
                                  st.columnShared,
                                  getSharedAccumulatorIndex(b, st, op, c, l));
      }
      return;
    }
    if (column) {
      st.columnAcc[op] = std::move(results[0]);
      return;
    }
    for (auto [k, out] : llvm::enumerate(op.getDpsInitsMutable())) {
      Value root = getRootBuffer(out.get());
      st.scalarValues.erase(root);
      st.vecValues[root] = results[k];
    }
    return;
  }
  // Reduction: thread-local combine from the identity; masked chunks keep
  // the accumulator unchanged.
  Type accType = body->getArgument(nIn).getType();
  Value acc = arith::getIdentityValue(g.kind, accType, b, loc);
  for (unsigned c = 0; c < numChunks; ++c)
    for (unsigned l = 0; l < st.vec; ++l) {
      unsigned lane = c * st.vec + l;
      SmallVector<Value> args;
      for (auto &i : ins)
        args.push_back(i[lane]);
      args.push_back(acc);
      Value next = cloneBody(b, op, args, laneIvs(c, l))[0];
      Value valid = st.shifted ? st.laneValid[lane] : st.chunkValid[c];
      acc = valid
                ? arith::SelectOp::create(b, loc, valid, next, acc).getResult()
                : next;
    }
  partial = acc;
}

std::optional<LaneWindow> kf::getLaneWindow(Value memref, AffineMap map,
                                            unsigned inner, unsigned vec,
                                            unsigned maxWidth) {
  auto mt = dyn_cast<MemRefType>(memref.getType());
  unsigned nr = map.getNumResults();
  if (!mt || !mt.hasStaticShape() || nr == 0 || vec < 2)
    return std::nullopt;
  for (unsigned i = 0; i + 1 < nr; ++i)
    if (map.getResult(i).isFunctionOfDim(inner))
      return std::nullopt;
  AffineExpr last = map.getResults().back();
  if (!last.isFunctionOfDim(inner))
    return std::nullopt;
  MLIRContext *ctx = map.getContext();
  unsigned nd = map.getNumDims(), ns = map.getNumSymbols();
  // The last index at lane l of a chunk starting at t * vec.
  AffineExpr t = getAffineDimExpr(nd, ctx);
  auto at = [&](int64_t l) {
    SmallVector<AffineExpr> repl;
    for (unsigned d = 0; d < nd; ++d)
      repl.push_back(d == inner ? t * (int64_t)vec + l
                                : getAffineDimExpr(d, ctx));
    return simplifyAffineExpr(last.replaceDims(repl), nd + 1, ns);
  };
  // Per lane l its offset delta[l] from lane 0, the first lane's index
  // c0 + (a multiple of divisor), and the chunk-to-chunk step `span`.
  SmallVector<int64_t> delta;
  int64_t lo = 0, hi = 0, c0 = 0, divisor = 1, span = 0;
  AffineExpr e0 = at(0);
  bool symbolic = true;
  for (unsigned l = 0; l < vec && symbolic; ++l) {
    auto c = dyn_cast<AffineConstantExpr>(
        simplifyAffineExpr(at(l) - e0, nd + 1, ns));
    if (!c)
      symbolic = false;
    else
      delta.push_back(c.getValue());
  }
  if (symbolic) {
    // e0 = rest + c0, rest a multiple of its known divisor.
    AffineExpr rest = e0;
    if (auto c = dyn_cast<AffineConstantExpr>(e0)) {
      c0 = c.getValue();
      rest = getAffineConstantExpr(0, ctx);
    } else if (auto add = dyn_cast<AffineBinaryOpExpr>(e0);
               add && add.getKind() == AffineExprKind::Add) {
      if (auto c = dyn_cast<AffineConstantExpr>(add.getRHS())) {
        c0 = c.getValue();
        rest = add.getLHS();
      }
    }
    divisor = rest.getLargestKnownDivisor();
    auto strideExpr = dyn_cast<AffineConstantExpr>(
        simplifyAffineExpr(at(vec) - e0, nd + 1, ns));
    span = strideExpr ? strideExpr.getValue() : 0;
  } else {
    // Modular indices of the inner loop alone (slices and concatenated
    // pieces: (e + c) mod n + o) are quasi-periodic: f(e + P) - f(e) is
    // one constant for P the lcm of the vector and every divisor, so one
    // period of chunks, evaluated, decides for all of them.
    if (ns != 0 || llvm::any_of(llvm::seq(nd), [&](unsigned d) {
          return d != inner && last.isFunctionOfDim(d);
        }))
      return std::nullopt;
    // The argument needs each mod/floordiv/ceildiv's operand to advance by
    // a multiple of its divisor over a period: no such op under another.
    int64_t period = vec;
    bool bad = false;
    auto isDiv = [](AffineExpr e) {
      auto bin = dyn_cast<AffineBinaryOpExpr>(e);
      return bin && bin.getKind() != AffineExprKind::Add &&
             bin.getKind() != AffineExprKind::Mul;
    };
    last.walk([&](AffineExpr e) {
      if (!isDiv(e))
        return;
      auto bin = cast<AffineBinaryOpExpr>(e);
      auto n = dyn_cast<AffineConstantExpr>(bin.getRHS());
      bool nested = false;
      bin.getLHS().walk([&](AffineExpr inner) { nested |= isDiv(inner); });
      if (!n || n.getValue() <= 0 || nested)
        bad = true;
      else
        period = std::lcm(period, n.getValue());
    });
    if (bad || period > (1 << 16))
      return std::nullopt;
    auto f = [&](int64_t e) -> std::optional<int64_t> {
      SmallVector<AffineExpr> repl;
      for (unsigned d = 0; d < nd; ++d)
        repl.push_back(getAffineConstantExpr(d == inner ? e : 0, ctx));
      auto c = dyn_cast<AffineConstantExpr>(
          simplifyAffineExpr(last.replaceDims(repl), nd, ns));
      return c ? std::optional<int64_t>(c.getValue()) : std::nullopt;
    };
    delta.clear();
    std::optional<int64_t> first = f(0), wrap = f(period);
    if (!first || !wrap)
      return std::nullopt;
    c0 = *first;
    divisor = 0;
    std::optional<int64_t> step;
    for (int64_t t = 0; t * vec < period; ++t) {
      std::optional<int64_t> base = f(t * vec), next = f((t + 1) * vec);
      if (!base || !next)
        return std::nullopt;
      for (unsigned l = 0; l < vec; ++l) {
        std::optional<int64_t> v = f(t * vec + l);
        if (!v)
          return std::nullopt;
        if (t == 0)
          delta.push_back(*v - *base);
        else if (delta[l] != *v - *base)
          return std::nullopt;
      }
      divisor = std::gcd(divisor, std::abs(*base - c0));
      if (!step)
        step = *next - *base;
      else if (*step != *next - *base)
        step = std::numeric_limits<int64_t>::min();
    }
    divisor = std::gcd(divisor, std::abs(*wrap - c0));
    if (divisor == 0)
      divisor = int64_t(1) << 30;
    // A step that changes (a piece wrapping around) bounds the window by
    // the lanes' own extent.
    span = step && *step != std::numeric_limits<int64_t>::min() ? *step : 0;
  }
  for (int64_t d : delta) {
    lo = std::min(lo, d);
    hi = std::max(hi, d);
  }
  if (span <= 0)
    span = hi - lo + 1;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(mt.getStridesAndOffset(strides, offset)) || strides.back() != 1 ||
      ShapedType::isDynamic(offset))
    return std::nullopt;
  // The widest window within what the chunk's own lanes span (the next
  // chunk starts `stride` elements on): a field's window then covers the
  // chunk's whole records, read by one load with the other fields, and a
  // per-record table's only this chunk's entries.
  unsigned widest = std::min<int64_t>(
      std::min<int64_t>(vec, maxWidth),
      span > 0 ? (int64_t)llvm::bit_floor((uint64_t)span) : 1);
  std::optional<LaneWindow> best;
  for (unsigned w = llvm::PowerOf2Ceil(hi - lo + 1); w <= vec; w *= 2) {
    if (best && w > widest)
      break;
    // Windows stay aligned and inside the last dim (a multiple of w).
    if (divisor % w != 0 || offset % w != 0 || mt.getShape().back() % w != 0 ||
        llvm::any_of(ArrayRef(strides).drop_back(), [&](int64_t s) {
          return ShapedType::isDynamic(s) || s % w != 0;
        }))
      break;
    int64_t shift = ((c0 + lo) % (int64_t)w + w) % w;
    if (hi - lo + shift >= (int64_t)w)
      continue;
    LaneWindow win;
    win.width = w;
    for (int64_t d : delta)
      win.lane.push_back(d - lo + shift);
    SmallVector<AffineExpr> results(map.getResults());
    results.back() = simplifyAffineExpr(last + (lo - shift), nd, ns);
    win.baseMap = AffineMap::get(nd, ns, results, ctx);
    best = win;
  }
  return best;
}

SmallVector<std::pair<OpOperand *, bool>>
kf::getRowAccesses(const GroupOp &g) {
  SmallVector<std::pair<OpOperand *, bool>> accesses;
  if (g.role == RowRole::Scalar)
    return accesses;
  unsigned inner = g.op.getNumLoops() - 1;
  for (OpOperand &operand : g.op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    AffineMap m = g.op.getMatchingIndexingMap(&operand);
    if (!m.isFunctionOfDim(inner))
      continue;
    auto last = dyn_cast<AffineDimExpr>(m.getResults().back());
    accesses.push_back({&operand, last && last.getPosition() == inner});
  }
  return accesses;
}

bool kf::hasWindowAccesses(const Group &group) {
  return llvm::any_of(group.ops, [](const GroupOp &g) {
    return llvm::any_of(getRowAccesses(g),
                        [](auto access) { return !access.second; });
  });
}

bool kf::fitsWindowedAccesses(const Group &group,
                              const KernelTargetInfo &target, unsigned vec,
                              std::string &why) {
  if (vec > 1 && group.inner % vec != 0) {
    why = "rows are not a multiple of the vector";
    return false;
  }
  for (const GroupOp &g : group.ops)
    for (auto [operand, contiguous] : getRowAccesses(g)) {
      auto mt = cast<MemRefType>(operand->get().getType());
      int64_t bytes = getElementBytes(mt.getElementType());
      unsigned width = vec;
      if (!contiguous && vec > 1) {
        std::optional<LaneWindow> w =
            getLaneWindow(operand->get(), g.op.getMatchingIndexingMap(operand),
                          g.op.getNumLoops() - 1, vec,
                          target.vectorBytes / bytes);
        if (!w) {
          why = "an operand's lanes are not read from one aligned window";
          return false;
        }
        width = w->width;
      } else if (vec > 1) {
        SmallVector<int64_t> strides;
        int64_t offset;
        if (failed(mt.getStridesAndOffset(strides, offset)) ||
            strides.empty() || strides.back() != 1) {
          why = "an operand is strided along the row";
          return false;
        }
      }
      if (width * bytes > target.vectorBytes) {
        why = "an access would be wider than the target's vector bytes";
        return false;
      }
    }
  return true;
}

static unsigned chooseVectorWidthFor(const Group &group,
                                     const KernelTargetInfo &target,
                                     int64_t maxBytes,
                                     bool rowsMayBeMisaligned);

unsigned kf::chooseVectorWidth(const Group &group,
                               const KernelTargetInfo &target,
                               bool rowsMayBeMisaligned, bool windows) {
  if (windows && hasWindowAccesses(group)) {
    // Each access by its own width: a bf16 pair's f32 table is read as
    // half a vector of f32 per vector of bf16 lanes.
    if (rowsMayBeMisaligned)
      return 1;
    int64_t minBytes = target.vectorBytes;
    for (const GroupOp &g : group.ops)
      for (OpOperand &operand : g.op->getOpOperands())
        if (auto mt = dyn_cast<MemRefType>(operand.get().getType()))
          minBytes = std::min(minBytes, getElementBytes(mt.getElementType()));
    std::string why;
    for (unsigned v = target.vectorBytes / minBytes; v > 1; v /= 2)
      if (fitsWindowedAccesses(group, target, v, why))
        return v;
    return 1;
  }
  return chooseVectorWidthFor(group, target, getWidestElementBytes(group),
                              rowsMayBeMisaligned);
}

int64_t kf::getWidestRowElementBytes(const Group &group) {
  // (Buffers private to the group hold their lanes in registers.)
  int64_t maxBytes = 1;
  for (const GroupOp &g : group.ops)
    for (auto access : getRowAccesses(g))
      if (!isGroupPrivate(getRootBuffer(access.first->get()), group))
        maxBytes = std::max(
          maxBytes, getElementBytes(cast<MemRefType>(access.first->get().getType())
                                        .getElementType()));
  return maxBytes;
}

unsigned kf::chooseRowAccessVectorWidth(const Group &group,
                                        const KernelTargetInfo &target,
                                        bool rowsMayBeMisaligned) {
  return chooseVectorWidthFor(group, target, getWidestRowElementBytes(group),
                              rowsMayBeMisaligned);
}

static unsigned chooseVectorWidthFor(const Group &group,
                                     const KernelTargetInfo &target,
                                     int64_t maxBytes,
                                     bool rowsMayBeMisaligned) {
  unsigned vec = std::max<int64_t>(1, target.vectorBytes / maxBytes);
  while (!rowsMayBeMisaligned && vec > 1 && group.inner % vec != 0)
    vec /= 2;
  // A gather along the row (an AoS field, a strided read) gains nothing from
  // several lanes per thread and loses memory parallelism: one lane then.
  for (const GroupOp &g : group.ops)
    for (auto [operand, contiguous] : getRowAccesses(g)) {
      if (!contiguous)
        return 1;
      // Nor through a view strided along its last dim (a permuted buffer
      // of memopt-interchange-normalizations): vectors need unit stride.
      SmallVector<int64_t> strides;
      int64_t offset;
      auto mt = cast<MemRefType>(operand->get().getType());
      if (failed(mt.getStridesAndOffset(strides, offset)) ||
          strides.empty() || strides.back() != 1)
        return 1;
    }
  return vec;
}

void kf::storeResults(OpBuilder &b, EmitState &st, const Group &group,
                      unsigned numChunks, Value isRowLeader, StoreKind kind) {
  Location loc = st.loc;
  for (auto [root, value] : group.written) {
    if (isGroupPrivate(root, group))
      continue;
    auto mt = cast<MemRefType>(value.getType());
    bool isScalar = st.scalarValues.count(root);
    if ((kind == StoreKind::RowVectors && isScalar) ||
        (kind == StoreKind::RowScalars && !isScalar))
      continue;
    if (auto it = st.scalarValues.find(root); it != st.scalarValues.end()) {
      OpBuilder::InsertionGuard guard(b);
      if (isRowLeader) {
        auto ifOp = scf::IfOp::create(b, loc, isRowLeader, false);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      }
      memref::StoreOp::create(b, loc, it->second, value, st.outerIds);
      continue;
    }
    SmallVector<Value> &lanes = st.vecValues[root];
    if (st.shifted) {
      bool aligned = isRowShaped(
          value,
          AffineMap::getMultiDimIdentityMap(mt.getRank(), b.getContext()), st);
      for (unsigned c = 0; c < numChunks; ++c) {
        OpBuilder::InsertionGuard guard(b);
        auto storeLanes = [&](OpBuilder &sb) {
          for (unsigned l = 0; l < st.vec; ++l) {
            OpBuilder::InsertionGuard g2(sb);
            auto ifOp =
                scf::IfOp::create(sb, loc, st.laneValid[c * st.vec + l], false);
            sb.setInsertionPointToStart(&ifOp.getThenRegion().front());
            if (aligned) {
              Value j = arith::AddIOp::create(sb, loc, st.chunkFlat[c],
                                              cIdx(sb, loc, l));
              memref::StoreOp::create(sb, loc, lanes[c * st.vec + l],
                                      getFlatView(sb, st, value),
                                      ValueRange{j});
              continue;
            }
            SmallVector<Value> idx(st.outerIds);
            idx.push_back(arith::AddIOp::create(sb, loc, st.chunkBase[c],
                                                cIdx(sb, loc, l)));
            memref::StoreOp::create(sb, loc, lanes[c * st.vec + l], value, idx);
          }
        };
        if (!aligned) {
          storeLanes(b);
          continue;
        }
        // Whole chunks in one aligned vector store; a row's partial first
        // and last chunks lane by lane (the rest of their aligned chunk
        // belongs to the neighbouring rows).
        auto ifOp = scf::IfOp::create(b, loc, st.chunkFull[c], true);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        auto vt = VectorType::get({(int64_t)st.vec}, mt.getElementType());
        SmallVector<Value> elems(lanes.begin() + c * st.vec,
                                 lanes.begin() + (c + 1) * st.vec);
        Value vec = vector::FromElementsOp::create(b, loc, vt, elems);
        vector::StoreOp::create(
            b, loc, vec, getFlatView(b, st, value), {st.chunkFlat[c]},
            /*nontemporal=*/false,
            llvm::MaybeAlign(st.vec * getElementBytes(mt.getElementType())));
        b.setInsertionPointToStart(&ifOp.getElseRegion().front());
        storeLanes(b);
      }
      continue;
    }
    for (unsigned c = 0; c < numChunks; ++c) {
      OpBuilder::InsertionGuard guard(b);
      if (st.chunkValid[c]) {
        auto ifOp = scf::IfOp::create(b, loc, st.chunkValid[c], false);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      }
      SmallVector<Value> idx(st.outerIds);
      idx.push_back(st.chunkBase[c]);
      if (st.vec > 1) {
        auto vt = VectorType::get({(int64_t)st.vec}, mt.getElementType());
        SmallVector<Value> elems(lanes.begin() + c * st.vec,
                                 lanes.begin() + (c + 1) * st.vec);
        Value vec = vector::FromElementsOp::create(b, loc, vt, elems);
        vector::StoreOp::create(
            b, loc, vec, value, idx, /*nontemporal=*/false,
            llvm::MaybeAlign(st.vec * getElementBytes(mt.getElementType())));
        continue;
      }
      memref::StoreOp::create(b, loc, lanes[c], value, idx);
    }
  }
}

Type kf::exchangeType(Type t) {
  return t.isF16() || t.isBF16() ? Float32Type::get(t.getContext()) : t;
}

Value kf::toExchange(OpBuilder &b, Location loc, Value v, Type elt) {
  if (v.getType() == elt)
    return v;
  return arith::BitcastOp::create(b, loc, elt, v);
}

Value kf::fromExchange(OpBuilder &b, Location loc, Value v, Type t) {
  if (v.getType() == t)
    return v;
  return arith::BitcastOp::create(b, loc, t, v);
}

SmallVector<Value> RowCluster::at(OpBuilder &b, Location loc, unsigned slot,
                                  int64_t rowOffset) const {
  SmallVector<Value> idx;
  if (parity)
    idx.push_back(parity);
  idx.push_back(cIdx(b, loc, slot));
  if (row && rowOffset != 0)
    idx.push_back(arith::AddIOp::create(b, loc, row, cIdx(b, loc, rowOffset)));
  else if (row)
    idx.push_back(row);
  return idx;
}

Value kf::reduceInOrder(OpBuilder &b, Location loc, arith::AtomicRMWKind kind,
                        ArrayRef<Value> values) {
  Value acc = values.front();
  for (Value x : values.drop_front())
    acc = arith::getReductionOp(kind, b, loc, acc, x);
  return acc;
}

SmallVector<SmallVector<Value>>
kf::exchangeTotals(OpBuilder &b, Location loc, Value tid,
                   const RowCluster &cluster, ArrayRef<ClusterTotal> totals) {
  Type elt = cast<MemRefType>(cluster.totals.getType()).getElementType();
  {
    OpBuilder::InsertionGuard guard(b);
    Value isT0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                       cIdx(b, loc, 0));
    auto ifOp = scf::IfOp::create(b, loc, isT0, false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    for (const ClusterTotal &t : totals)
      memref::StoreOp::create(b, loc, toExchange(b, loc, t.value, elt),
                              cluster.totals,
                              cluster.at(b, loc, t.slot, t.rowOffset));
  }
  ClusterBarrierOp::create(b, loc);
  SmallVector<SmallVector<Value>> all(totals.size());
  for (int64_t r = 0; r < cluster.size; ++r)
    for (auto [k, t] : llvm::enumerate(totals))
      all[k].push_back(fromExchange(
          b, loc,
          ClusterLoadOp::create(b, loc, elt, cluster.totals, cIdx(b, loc, r),
                                cluster.at(b, loc, t.slot, t.rowOffset)),
          t.value.getType()));
  return all;
}

Value kf::clusterReduce(OpBuilder &b, Location loc, Value total,
                        arith::AtomicRMWKind kind, Value tid,
                        const RowCluster &cluster, unsigned slot) {
  return reduceInOrder(
      b, loc, kind, exchangeTotals(b, loc, tid, cluster, {{slot, total}})[0]);
}

Value kf::blockReduce(OpBuilder &b, Location loc, Value partial,
                      arith::AtomicRMWKind kind, unsigned threads,
                      unsigned warpSize, Value tid, Value smem, unsigned slot,
                      const RowCluster *cluster) {
  // In the exchange type across the cluster too, rounded back once.
  Value total = blockReduceMany(b, loc, partial, kind, threads, warpSize, tid,
                                smem, slot, /*roundBack=*/false)[0];
  if (cluster && cluster->size > 1)
    total = clusterReduce(b, loc, total, kind, tid, *cluster, slot);
  if (total.getType() != partial.getType())
    total = arith::TruncFOp::create(b, loc, partial.getType(), total);
  return total;
}

SmallVector<Value> kf::blockReduceMany(OpBuilder &b, Location loc,
                                       ArrayRef<Value> partials,
                                       ArrayRef<arith::AtomicRMWKind> kinds,
                                       unsigned threads, unsigned warpSize,
                                       Value tid, Value smem,
                                       unsigned firstSlot, bool roundBack) {
  SmallVector<Value> vs;
  for (Value p : partials) {
    Type xType = exchangeType(p.getType());
    vs.push_back(xType == p.getType()
                     ? p
                     : arith::ExtFOp::create(b, loc, xType, p).getResult());
  }
  // The shuffle trees side by side: each value combined as blockReduce
  // combines it, so the same bits.
  // (Rows held by part of a warp: the tree stays within the row's lanes.)
  for (unsigned off = std::min(threads, warpSize) / 2; off >= 1; off /= 2)
    for (auto [k, v] : llvm::enumerate(vs)) {
      auto shfl = gpu::ShuffleOp::create(b, loc, v, off, warpSize,
                                         gpu::ShuffleMode::XOR);
      v = arith::getReductionOp(kinds[k], b, loc, v, shfl.getShuffleResult());
    }
  SmallVector<Value> totals = vs;
  if (threads > warpSize) {
    unsigned numWarps = threads / warpSize;
    Type smemElt = cast<MemRefType>(smem.getType()).getElementType();
    Value cWarp = cIdx(b, loc, warpSize);
    Value lane = arith::RemUIOp::create(b, loc, tid, cWarp);
    Value warp = arith::DivUIOp::create(b, loc, tid, cWarp);
    Value isLane0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          lane, cIdx(b, loc, 0));
    {
      OpBuilder::InsertionGuard guard(b);
      auto ifOp = scf::IfOp::create(b, loc, isLane0, false);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      for (auto [k, v] : llvm::enumerate(vs))
        memref::StoreOp::create(b, loc, toExchange(b, loc, v, smemElt), smem,
                                ValueRange{cIdx(b, loc, firstSlot + k), warp});
    }
    // One barrier for all of them.
    gpu::BarrierOp::create(b, loc);
    for (auto [k, v] : llvm::enumerate(vs)) {
      Value total = arith::getIdentityValue(kinds[k], v.getType(), b, loc);
      for (unsigned w = 0; w < numWarps; ++w) {
        Value x = fromExchange(
            b, loc,
            memref::LoadOp::create(
                b, loc, smem,
                ValueRange{cIdx(b, loc, firstSlot + k), cIdx(b, loc, w)}),
            v.getType());
        total = arith::getReductionOp(kinds[k], b, loc, total, x);
      }
      totals[k] = total;
    }
  }
  for (auto [k, p] : llvm::enumerate(partials))
    if (roundBack && totals[k].getType() != p.getType())
      totals[k] = arith::TruncFOp::create(b, loc, p.getType(), totals[k]);
  return totals;
}

void kf::setupShiftedChunks(OpBuilder &b, EmitState &st, Value row,
                            ArrayRef<Value> chunks, int64_t inner, int64_t rows,
                            bool mayPassRow, bool whole) {
  Location loc = st.loc;
  unsigned vec = st.vec;
  st.shifted = true;
  for (auto *v : {&st.chunkBase, &st.chunkValid, &st.chunkFlat, &st.chunkFull,
                  &st.chunkInBuffer, &st.laneValid})
    v->clear();
  int64_t total = rows * inner;
  Value rowStart = arith::MulIOp::create(b, loc, row, cIdx(b, loc, inner));
  Value h = arith::RemUIOp::create(b, loc, rowStart, cIdx(b, loc, vec));
  Value alignedStart = arith::SubIOp::create(b, loc, rowStart, h);
  Value end = arith::AddIOp::create(b, loc, h, cIdx(b, loc, inner));
  for (Value chunk : chunks) {
    Value k0 = arith::MulIOp::create(b, loc, chunk, cIdx(b, loc, vec));
    st.chunkBase.push_back(arith::SubIOp::create(b, loc, k0, h));
    st.chunkValid.push_back(Value());
    Value flat = arith::AddIOp::create(b, loc, alignedStart, k0);
    if (whole) {
      // Every lane in the row, the aligned vector inside the buffers.
      Value always = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
      st.chunkFlat.push_back(flat);
      st.chunkFull.push_back(always);
      st.chunkInBuffer.push_back(Value());
      st.laneValid.append(vec, always);
      continue;
    }
    if (mayPassRow)
      flat = arith::SelectOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, k0, end),
          flat, alignedStart);
    st.chunkFlat.push_back(flat);
    // The aligned chunk of the buffers' last row may reach past their end
    // when the total size is not a multiple of the vector.
    st.chunkInBuffer.push_back(
        total % vec == 0
            ? Value()
            : arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::ule,
                  arith::AddIOp::create(b, loc, flat, cIdx(b, loc, vec)),
                  cIdx(b, loc, total))
                  .getResult());
    Value lo = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, k0, h);
    Value hi = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ule,
        arith::AddIOp::create(b, loc, k0, cIdx(b, loc, vec)), end);
    st.chunkFull.push_back(arith::AndIOp::create(b, loc, lo, hi));
    for (unsigned l = 0; l < vec; ++l) {
      Value kl = arith::AddIOp::create(b, loc, k0, cIdx(b, loc, l));
      Value ge =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, kl, h);
      Value lt =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, kl, end);
      st.laneValid.push_back(arith::AndIOp::create(b, loc, ge, lt));
    }
  }
}

void kf::initRowState(OpBuilder &b, EmitState &st, gpu::LaunchOp launch,
                      const Group &group, unsigned vec, Value row) {
  st.vec = vec;
  st.outerIds =
      delinearize(b, st.loc, row ? row : launch.getBlockIds().x, group.outer);
  st.kernelEntry = &launch.getBody().front();
  st.rowShape.assign(group.outer.begin(), group.outer.end());
  st.rowShape.push_back(group.inner);
}

FailureOr<MemRefType> kf::getExchangeType(OpBuilder &b, const Group &group,
                                          const KernelTargetInfo &target,
                                          std::string &why) {
  unsigned numReduce = llvm::count_if(
      group.ops, [](const GroupOp &g) { return g.role == RowRole::Reduce; });
  Type smemElt;
  for (const GroupOp &g : group.ops) {
    if (g.role != RowRole::Reduce)
      continue;
    Type t = exchangeType(
        g.op.getBody()->getArgument(g.op.getNumDpsInputs()).getType());
    if (smemElt && t != smemElt) {
      // 32-bit floats and integers share an f32 buffer (bitcast).
      if (t.getIntOrFloatBitWidth() != 32 ||
          smemElt.getIntOrFloatBitWidth() != 32) {
        why = "reductions of different accumulator types in one row";
        return failure();
      }
      if (isa<FloatType>(t))
        smemElt = t;
      continue;
    }
    smemElt = t;
  }
  // (Column reductions alone over elementwise rows exchange nothing: one
  // unused slot keeps the kernel's shape.)
  if (!smemElt && group.hasColumnReduce()) {
    smemElt = b.getF32Type();
    numReduce = 1;
  }
  if (!smemElt) {
    why = "the group has no reduction";
    return failure();
  }
  return MemRefType::get(
      {numReduce, (int64_t)target.warpSize}, smemElt, AffineMap(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
}

Value kf::getReductionInit(OpBuilder &b, EmitState &st, const GroupOp &g) {
  OpOperand &out = g.op.getDpsInitsMutable()[0];
  auto it = st.scalarValues.find(getRootBuffer(out.get()));
  if (it != st.scalarValues.end())
    return it->second;
  return memref::LoadOp::create(b, st.loc, out.get(), st.outerIds);
}

void kf::finishReduction(OpBuilder &b, EmitState &st, const GroupOp &g,
                         Value partial, unsigned threads,
                         const KernelTargetInfo &target, Value tid, Value smem,
                         unsigned slot, const RowCluster *cluster) {
  Value total = blockReduce(b, st.loc, partial, g.kind, threads,
                            target.warpSize, tid, smem, slot, cluster);
  setReductionResult(b, st, g, total);
}

void kf::setReductionResult(OpBuilder &b, EmitState &st, const GroupOp &g,
                            Value total) {
  st.scalarValues[getRootBuffer(g.op.getDpsInitsMutable()[0].get())] =
      arith::getReductionOp(g.kind, b, st.loc, getReductionInit(b, st, g),
                            total);
}

bool kf::overwritesItsInput(const Group &group) {
  return llvm::any_of(group.written, [&](auto &entry) {
    return group.readExternal.contains(entry.first) &&
           !isGroupPrivate(entry.first, group);
  });
}

Value kf::emitChunkPass(OpBuilder &b, EmitState &st, const Group &group,
                        const VectorOpList &vectorOps, const GroupOp *reduce,
                        int64_t count, function_ref<void(Value)> setChunk) {
  Location loc = st.loc;
  SmallVector<Value> inits;
  if (reduce)
    inits.push_back(
        arith::getIdentityValue(reduce->kind,
                                reduce->op.getBody()
                                    ->getArgument(reduce->op.getNumDpsInputs())
                                    .getType(),
                                b, loc));
  auto forOp = scf::ForOp::create(b, loc, cIdx(b, loc, 0), cIdx(b, loc, count),
                                  cIdx(b, loc, 1), inits);
  OpBuilder::InsertionGuard guard(b);
  // Without results the loop already ends in its yield.
  if (reduce)
    b.setInsertionPointToStart(forOp.getBody());
  else
    b.setInsertionPoint(forOp.getBody()->getTerminator());
  setChunk(forOp.getInductionVar());
  DenseMap<Value, Value> current = st.scalarValues;
  for (auto &[g, scalars] : vectorOps) {
    st.scalarValues = scalars;
    Value unused;
    emitOp(b, st, *g, 1, unused);
  }
  st.scalarValues = std::move(current);
  Value result;
  if (reduce) {
    Value partial;
    emitOp(b, st, *reduce, 1, partial);
    scf::YieldOp::create(
        b, loc,
        ValueRange{arith::getReductionOp(
            reduce->kind, b, loc, forOp.getRegionIterArgs()[0], partial)});
    result = forOp.getResult(0);
  } else {
    storeResults(b, st, group, 1, Value(), StoreKind::RowVectors);
  }
  st.vecValues.clear();
  st.loadCache.clear();
  return result;
}

int64_t kf::blockStaticBytes(MemRefType exchange, bool warpPartials,
                             int64_t totalsCopies) {
  int64_t elements = totalsCopies * exchange.getDimSize(0);
  if (warpPartials)
    elements += exchange.getNumElements();
  return elements * getElementBytes(exchange.getElementType());
}

SmallVector<StagedInput>
kf::selectStagedInputs(const Group &group, const KernelTargetInfo &target,
                       int64_t numChunks, int64_t threads, unsigned vec,
                       int64_t blocksPerMultiprocessor, int64_t staticBytes,
                       int64_t &stagingBytes, bool &tooBig) {
  SmallVector<StagedInput> staged;
  stagingBytes = 0;
  // Shared memory of one block: its share of the multiprocessor's, less
  // the 1 KiB the system reserves per block and its static buffers.
  int64_t budget = std::min<int64_t>(target.sharedMemoryPerMultiprocessor /
                                         blocksPerMultiprocessor,
                                     target.maxSharedMemoryPerBlock) -
                   1024 - staticBytes;
  for (const GroupOp &g : group.ops) {
    if (g.role == RowRole::Scalar)
      continue;
    unsigned innerDim = g.op.getNumLoops() - 1;
    for (OpOperand *in : g.op.getDpsInputOperands()) {
      Value v = in->get();
      auto mt = dyn_cast<MemRefType>(v.getType());
      Value root = getRootBuffer(v);
      if (!mt || !group.readExternal.contains(root) ||
          group.written.count(root))
        continue;
      AffineMap map = g.op.getMatchingIndexingMap(in);
      auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
      // Inputs along the row (a weight shared by every row stays in L2).
      if (!last || last.getPosition() != innerDim ||
          llvm::none_of(llvm::seq(0u, innerDim),
                        [&](unsigned d) { return map.isFunctionOfDim(d); }))
        continue;
      if (llvm::any_of(staged, [&](const StagedInput &s) {
            return s.memref == v && s.map == map;
          }))
        continue;
      int64_t chunkBytes = vec * getElementBytes(mt.getElementType());
      if (chunkBytes != 4 && chunkBytes != 8 && chunkBytes != 16)
        continue;
      int64_t bytes = llvm::alignTo(numChunks * threads * chunkBytes, 128);
      if (stagingBytes + bytes > budget) {
        tooBig = true;
        continue;
      }
      staged.push_back({v, map, mt.getElementType(), stagingBytes, Value()});
      stagingBytes += bytes;
    }
  }
  return staged;
}

void kf::waitForOwnCopies(OpBuilder &b, Location loc) {
  auto drain = nvgpu::DeviceAsyncCreateGroupOp::create(
      b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), ValueRange{});
  nvgpu::DeviceAsyncWaitOp::create(b, loc, drain.getAsyncToken(),
                                   b.getI32IntegerAttr(0));
}

void kf::emitRowPrefetch(OpBuilder &b, Location loc, const Group &group,
                         ArrayRef<StagedInput> staged,
                         ArrayRef<Value> chunkBase, ArrayRef<Value> chunkValid,
                         Value row, Value tid, unsigned vec) {
  int64_t numChunks = chunkBase.size();
  SmallVector<Value> outer = delinearize(b, loc, row, group.outer);
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  SmallVector<Value> tokens;
  for (const StagedInput &in : staged) {
    int64_t bytes = vec * getElementBytes(in.elementType);
    for (int64_t c = 0; c < numChunks; ++c) {
      Value base = chunkBase[c];
      if (chunkValid[c])
        base = arith::SelectOp::create(b, loc, chunkValid[c], base,
                                       cIdx(b, loc, 0));
      SmallVector<Value> ivs(outer);
      ivs.push_back(base);
      tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
          b, loc, tokenType, in.view,
          ValueRange{cIdx(b, loc, c), tid, cIdx(b, loc, 0)}, in.memref,
          expandIndices(b, loc, in.map, ivs), b.getIndexAttr(vec),
          /*srcElements=*/Value(), bytes == 16 ? b.getUnitAttr() : UnitAttr()));
    }
  }
  nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenType, tokens);
}

gpu::LaunchOp kf::createLinearLaunch(OpBuilder &b, Location loc, int64_t count,
                                     int64_t blockSize, Value &linear) {
  int64_t threads = std::min<int64_t>(blockSize, count);
  int64_t grid = llvm::divideCeil(count, threads);
  gpu::LaunchOp launch = createLaunch(b, loc, {grid}, {threads});
  linear = arith::AddIOp::create(b, loc,
                                 arith::MulIOp::create(b, loc,
                                                       launch.getBlockIds().x,
                                                       cIdx(b, loc, threads)),
                                 launch.getThreadIds().x);
  if (grid * threads != count) {
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          linear, cIdx(b, loc, count));
    auto ifOp = scf::IfOp::create(b, loc, inRange, false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  }
  return launch;
}

void kf::evalElementwiseChain(OpBuilder &b, Location loc,
                              ArrayRef<linalg::GenericOp> ops, ValueRange ivs,
                              DenseMap<Value, Value> &held,
                              const DenseSet<Value> &privates, OpOperand *given,
                              Value givenValue) {
  for (linalg::GenericOp op : ops) {
    SmallVector<Value> args;
    for (OpOperand *in : op.getDpsInputOperands()) {
      Value v = in->get();
      if (in == given) {
        args.push_back(givenValue);
        continue;
      }
      if (!isa<MemRefType>(v.getType())) {
        args.push_back(v);
        continue;
      }
      if (Value h = held.lookup(getRootBuffer(v))) {
        args.push_back(h);
        continue;
      }
      args.push_back(memref::LoadOp::create(
          b, loc, v,
          expandIndices(b, loc, op.getMatchingIndexingMap(in), ivs)));
    }
    for (OpOperand &out : op.getDpsInitsMutable()) {
      BlockArgument outArg = op.getMatchingBlockArgument(&out);
      if (outArg.use_empty())
        args.push_back(ub::PoisonOp::create(b, loc, outArg.getType()));
      else if (Value h = held.lookup(getRootBuffer(out.get())))
        args.push_back(h);
      else
        args.push_back(memref::LoadOp::create(b, loc, out.get(), ivs));
    }
    SmallVector<Value> res = cloneBody(b, op, args, ivs);
    for (auto [out, r] : llvm::zip(op.getDpsInitsMutable(), res)) {
      Value outRoot = getRootBuffer(out.get());
      held[outRoot] = r;
      if (!privates.contains(outRoot))
        memref::StoreOp::create(b, loc, r, out.get(), ivs);
    }
  }
}

/// Elements (0, `col`) .. (`n` - 1, `col`) of `buf` combined in that order,
/// from the identity (a deterministic order across warps and slices).
Value kf::combineInOrder(OpBuilder &b, Location loc,
                            arith::AtomicRMWKind kind, Value buf, int64_t n,
                            Value col) {
  Type t = cast<MemRefType>(buf.getType()).getElementType();
  Value total = arith::getIdentityValue(kind, t, b, loc);
  for (int64_t k = 0; k < n; ++k) {
    Value x = memref::LoadOp::create(b, loc, buf, ValueRange{cIdx(b, loc, k), col});
    total = arith::getReductionOp(kind, b, loc, total, x);
  }
  return total;
}

SmallVector<Value> kf::getSharedAccumulatorIndex(OpBuilder &b, EmitState &st,
                                                 Operation *op, unsigned c,
                                                 unsigned lane) {
  Location loc = st.loc;
  Value base = st.chunkBase[c];
  if (st.chunkValid[c])
    base = arith::SelectOp::create(b, loc, st.chunkValid[c], base,
                                   cIdx(b, loc, 0));
  Value col =
      lane ? arith::AddIOp::create(b, loc, base, cIdx(b, loc, lane)).getResult()
           : base;
  return {st.columnSlot, cIdx(b, loc, st.columnIndex.lookup(op)), col};
}
