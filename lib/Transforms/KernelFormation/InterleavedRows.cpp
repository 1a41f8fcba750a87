//===- InterleavedRows.cpp - row kernels with rows side by side -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The interleaved form of the row family (#memopt.row, interleaved = true).
// A normalization over a dim that is not the innermost one (softmax over
// dim 0, LayerNorm over the batch) reduces along a strided dim while the
// contiguous dim is parallel. memopt-interchange-normalizations makes the
// reduced loop the innermost one and reads the buffers through permuted
// views, so its ops form a row group whose rows are the contiguous dim's
// points: consecutive rows lie side by side in memory. A block then holds
// `rows_per_block` consecutive rows with the threads of each row spread
// across the warps (thread t holds row t mod rows_per_block), so that every
// warp access reads consecutive rows of one element: coalesced. Each row
// stays in registers (split over a cluster when long), so the input is read
// from DRAM once, where the column family reads it once per reduction.
//
//===----------------------------------------------------------------------===//

#include "EmitUtils.h"
#include "Strategies.h"

#include "memopt/Dialect/MemoptDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

/// The plan with at most `most` rows side by side a block (a power of two
/// between the least and the warp).
static FailureOr<InterleavedRowPlan>
planInterleavedRowsWithin(int64_t rowLength, int64_t rows,
                          const KernelTargetInfo &target, std::string &why,
                          int64_t rowsPerThread, int64_t most) {
  int64_t warp = target.warpSize;
  InterleavedRowPlan plan;
  if (rows < 1 || rowLength < 1) {
    why = "no rows or an empty row";
    return failure();
  }
  // A thread holding `rowsPerThread` rows: a warp's R rows take R / V
  // threads of each warp, and its registers hold 1 / V of the elements of
  // each row that one row a thread would.
  int64_t v = std::max<int64_t>(1, rowsPerThread);
  plan.rowsPerThread = v;
  int64_t minRows = std::max<int64_t>(8, v);
  // Rows side by side: a warp reads `rowsPerBlock` consecutive rows (a
  // warp's worth where the rows allow it; at least 8, a 32-byte sector of
  // 4-byte elements). Rows that no such group divides take the largest
  // whose last block's empty slots are at most an eighth of the rows
  // (F.normalize over dim 1 of 63 x 256 x 1001: 63063 rows in groups of 32;
  // ConvNeXt's channels-first LayerNorm over 2 x 7 x 7 points, 98 rows:
  // groups of 8), else (below about 56 rows) the one leaving the fewest
  // empty slots, the larger on a tie (13 rows: 16); the slots past the
  // last row load it again and store nothing.
  most = std::clamp<int64_t>(llvm::bit_floor<uint64_t>(most), minRows, warp);
  plan.rowsPerBlock = 0;
  for (int64_t w = most; w >= minRows; w /= 2)
    if (rows % w == 0) {
      plan.rowsPerBlock = w;
      break;
    }
  for (int64_t w = most; plan.rowsPerBlock == 0 && w >= minRows; w /= 2)
    if (8 * ((int64_t)llvm::alignTo(rows, w) - rows) <= rows)
      plan.rowsPerBlock = w;
  if (plan.rowsPerBlock == 0) {
    int64_t bestSlots = 0;
    for (int64_t w = most; w >= minRows; w /= 2) {
      int64_t slots = llvm::alignTo(rows, w);
      if (plan.rowsPerBlock == 0 || slots < bestSlots) {
        plan.rowsPerBlock = w;
        bestSlots = slots;
      }
    }
  }
  // Threads across the block's rows (w for one row a thread).
  int64_t w = plan.rowsPerBlock / v;
  // Threads per row: whole warps per block.
  int64_t step = std::max<int64_t>(1, warp / w);
  auto roundThreads = [&](int64_t t) -> int64_t {
    return llvm::alignTo(t, step);
  };
  int64_t maxThreads = std::max<int64_t>(step, target.maxThreadsPerBlock / w);
  int64_t maxChunks = std::max<int64_t>(1, target.rowRegisterElements / v);
  plan.threads = std::clamp<int64_t>(
      roundThreads(llvm::divideCeil(rowLength, target.rowChunksPerThread)),
      step, maxThreads);
  plan.chunks = llvm::divideCeil(rowLength, plan.threads);
  if (plan.chunks <= maxChunks)
    return plan;
  // Split over a cluster: blocks of clusterBlockThreads (two per
  // multiprocessor), else of the largest size, in a cluster within the
  // portable size where either allows, else within the target's limit.
  // (Softmax over dim 0 of 8192 x 4096 f32: 8 blocks of 1024 threads
  // 52.3% of copy against 45.7% for 16 of 512; run 19.)
  int64_t blockSizes[] = {(int64_t)target.clusterBlockThreads,
                          (int64_t)target.maxThreadsPerBlock};
  int64_t limits[] = {
      std::min<int64_t>(target.portableClusterSize, target.maxClusterSize),
      (int64_t)target.maxClusterSize};
  for (int64_t attempt = 0; attempt < 4; ++attempt) {
    int64_t blockThreads = blockSizes[attempt % 2];
    int64_t t = std::max<int64_t>(step, blockThreads / w);
    int64_t c = llvm::divideCeil(rowLength, maxChunks * t);
    if (c > limits[attempt / 2])
      continue;
    // Balance: fewest elements per thread, then fewest threads; no block
    // of the cluster starts past the row's end.
    int64_t k = llvm::divideCeil(rowLength, c * t);
    t = std::min(t, roundThreads(llvm::divideCeil(rowLength, c * k)));
    while (c > 1 && (c - 1) * k * t >= rowLength)
      --c;
    plan.threads = t;
    plan.chunks = k;
    plan.cluster = c;
    plan.blocksPerMultiprocessor =
        c > 1 ? std::max<int64_t>(1, target.maxThreadsPerBlock / (w * t)) : 1;
    return plan;
  }
  why = "a row of " + std::to_string(rowLength) +
        " elements does not fit in the registers of a cluster of " +
        std::to_string(target.maxClusterSize) + " blocks";
  return failure();
}

FailureOr<InterleavedRowPlan>
kf::planInterleavedRows(int64_t rowLength, int64_t rows,
                        const KernelTargetInfo &target, std::string &why,
                        int64_t rowsPerThread) {
  int64_t warp = target.warpSize;
  if (target.interleavedBlockRows > 0)
    return planInterleavedRowsWithin(rowLength, rows, target, why,
                                     rowsPerThread,
                                     target.interleavedBlockRows);
  FailureOr<InterleavedRowPlan> plan = planInterleavedRowsWithin(
      rowLength, rows, target, why, rowsPerThread, warp);
  // Rows split over a cluster: at most 16 side by side, so that the
  // cluster's blocks are of cluster-block-threads, two or more a
  // multiprocessor, one block's loads overlapping another's exchanges (run
  // 53, an H100: softmax over dim 0 of 8192 x 4096 f32 69.8% of copy
  // against 62.8% for 32 rows in blocks of 1024; LayerNorm over the batch
  // in bf16 47.7 against 39.9; 8 rows a block, a 32-byte sector of f32 or
  // half of one of bf16, 64.0 and 25.8). Rows that fit one block keep the
  // warp's worth (group norm NHWC's partials 54.1% against 52.1 at 16).
  if (failed(plan) || plan->cluster == 1 || plan->rowsPerBlock <= 16)
    return plan;
  std::string whyNot;
  FailureOr<InterleavedRowPlan> narrower = planInterleavedRowsWithin(
      rowLength, rows, target, whyNot, rowsPerThread, 16);
  // (Several blocks a multiprocessor: a cluster of cluster-block-threads.)
  if (succeeded(narrower) && narrower->blocksPerMultiprocessor > 1 &&
      narrower->cluster <= std::min<int64_t>(target.portableClusterSize,
                                             target.maxClusterSize))
    return narrower;
  return plan;
}

/// The stride of dim `d` of `t` (identity layouts included), or nullopt.
static std::optional<int64_t> getStride(MemRefType t, unsigned d) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(t.getStridesAndOffset(strides, offset)) || d >= strides.size() ||
      ShapedType::isDynamic(strides[d]))
    return std::nullopt;
  return strides[d];
}

/// The operands, with their ops, of the group's ops over the row's
/// elements that are buffers the group does not keep in registers.
static SmallVector<std::pair<const GroupOp *, OpOperand *>>
getRowBufferOperands(const Group &group) {
  SmallVector<std::pair<const GroupOp *, OpOperand *>> operands;
  for (const GroupOp &g : group.ops) {
    if (g.role == RowRole::Scalar)
      continue;
    for (OpOperand &operand : g.op->getOpOperands())
      if (isa<MemRefType>(operand.get().getType()) &&
          !isGroupPrivate(getRootBuffer(operand.get()), group))
        operands.push_back({&g, &operand});
  }
  return operands;
}

int64_t kf::chooseRowsPerThread(const Group &group,
                                const KernelTargetInfo &target,
                                std::string &why) {
  // Accesses along the rows: every read of an op over the row's elements
  // (and the stores of its results) to a buffer the group does not keep
  // in registers.
  SmallVector<std::pair<Value, AffineMap>> accesses;
  unsigned numLoops = group.outer.size() + 1;
  for (auto [g, operand] : getRowBufferOperands(group)) {
    // (Inits are read where their element is used.)
    if (g->op.isDpsInit(operand) &&
        (g->role == RowRole::Reduce ||
         g->op.getMatchingBlockArgument(operand).use_empty()))
      continue;
    accesses.push_back(
        {operand->get(), g->op.getMatchingIndexingMap(operand)});
  }
  MLIRContext *ctx = group.ops.front().op.getContext();
  for (auto [root, value] : group.written)
    if (!isGroupPrivate(root, group) && group.writtenIsVector.lookup(root))
      accesses.push_back(
          {value, AffineMap::getMultiDimIdentityMap(numLoops, ctx)});
  int64_t widest = 0;
  for (auto [v, map] : accesses)
    if (map.isFunctionOfDim(numLoops - 2))
      widest = std::max<int64_t>(
          widest,
          getElementBytes(cast<MemRefType>(v.getType()).getElementType()));
  OpBuilder b(ctx);
  FailureOr<MemRefType> exchange = getExchangeType(b, group, target, why);
  if (failed(exchange))
    return 1;
  if (widest == 0 || getElementBytes(exchange->getElementType()) > 4) {
    why = widest == 0 ? "no access along the rows"
                      : "its partials are wider than 4 bytes";
    return 1;
  }
  int64_t lastOuter = group.outer.back();
  for (int64_t v = std::min<int64_t>(target.vectorBytes / widest,
                                     target.interleavedRowsPerThread);
       v > 1; v /= 2) {
    if (lastOuter % v != 0 || v > (int64_t)target.warpSize)
      continue;
    if (llvm::all_of(accesses, [&](auto access) {
          return getAcrossRowsAccess(access.first, access.second, numLoops, v)
                     .kind != AcrossRowsAccess::Scalar;
        }))
      return v;
  }
  why = "no vector of 2 or more rows is aligned in every buffer read or "
        "written along the rows (the last outer dim of " +
        std::to_string(lastOuter) + " points)";
  return 1;
}

bool kf::isLaidOutAcrossRows(const Group &group) {
  if (group.outer.empty() || group.inner < 1)
    return false;
  bool any = false;
  for (auto [g, operand] : getRowBufferOperands(group)) {
    unsigned n = g->op.getNumLoops();
    auto mt = cast<MemRefType>(operand->get().getType());
    AffineMap m = g->op.getMatchingIndexingMap(operand);
    if (!m.isFunctionOfDim(n - 1))
      continue;
    // Along the row: the dim indexed by the innermost loop alone, not
    // contiguous; across rows: the dim of the last outer loop, stride 1.
    std::optional<unsigned> innerDim, rowDim;
    for (auto [i, e] : llvm::enumerate(m.getResults())) {
      auto d = dyn_cast<AffineDimExpr>(e);
      if (!d)
        continue;
      if (d.getPosition() == n - 1)
        innerDim = i;
      else if (d.getPosition() == n - 2)
        rowDim = i;
    }
    // Indexed by the row's elements alone (a weight along the reduced
    // dim): the same for every row, a broadcast across them.
    if (innerDim && !rowDim)
      continue;
    if (!innerDim)
      return false;
    std::optional<int64_t> along = getStride(mt, *innerDim),
                           across = getStride(mt, *rowDim);
    if (!along || !across || *along == 1 || *across != 1)
      return false;
    any = true;
  }
  return any;
}

FailureOr<Attribute>
kf::selectInterleavedRowStrategy(const Group &group,
                                 const KernelTargetInfo &target,
                                 std::string &why) {
  MLIRContext *ctx = group.ops.front().op.getContext();
  OpBuilder b(ctx);
  if (failed(getExchangeType(b, group, target, why)))
    return failure();
  std::string whyOne;
  int64_t rowsPerThread = chooseRowsPerThread(group, target, whyOne);
  // (One row a thread is the default, not a refusal: no remark then.)
  if (rowsPerThread == 1 && target.interleavedRowsPerThread > 1)
    group.ops.front().op.emitRemark()
        << "interleaved rows one to a thread (accesses of one element): "
        << whyOne;
  FailureOr<InterleavedRowPlan> plan = planInterleavedRows(
      group.inner, group.numRows(), target, why, rowsPerThread);
  if (failed(plan))
    return failure();
  // (`vector`: the rows a thread holds, one vector across them.)
  return Attribute(RowStrategyAttr::get(
      ctx, plan->rowsPerThread, /*shifted=*/false, plan->threads, plan->chunks,
      plan->cluster, /*shared_chunks=*/0, plan->blocksPerMultiprocessor,
      /*persistent_clusters=*/0, /*online_softmax=*/false, plan->rowsPerBlock,
      /*interleaved=*/true, /*column_partials=*/0,
      /*shared_accumulators=*/false, /*prefetch_rows=*/0,
      /*block_order=*/DenseI64ArrayAttr(), /*after_last_block=*/false));
}

int64_t kf::getInterleavedLanesPerWarp(int64_t quads, unsigned warpSize) {
  return (int64_t)warpSize % quads == 0 ? warpSize / quads : 1;
}

SmallVector<Value> kf::interleavedRowReduce(
    OpBuilder &b, Location loc, ArrayRef<Value> partials,
    arith::AtomicRMWKind kind, int64_t lanes, Value lane, Value rowInBlock,
    int64_t quads, unsigned warpSize, Value smem, unsigned slot,
    const RowCluster &cluster) {
  int64_t count = partials.size();
  SmallVector<Value> totals;
  for (Value p : partials) {
    Type xType = exchangeType(p.getType());
    totals.push_back(xType == p.getType()
                         ? p
                         : arith::ExtFOp::create(b, loc, xType, p).getResult());
  }
  // Within the warp: lanes l and l ^ (quads * 2^k) hold the same rows
  // (where the warp holds whole lanes of the block: quads divides it; the
  // threads of a block are whole warps, so lanes is then a multiple of the
  // lanes per warp).
  int64_t lanesPerWarp = getInterleavedLanesPerWarp(quads, warpSize);
  for (int64_t off = quads; lanesPerWarp > 1 && off < (int64_t)warpSize;
       off *= 2)
    for (Value &t : totals) {
      auto shfl = gpu::ShuffleOp::create(b, loc, t, off, warpSize,
                                         gpu::ShuffleMode::XOR);
      t = arith::getReductionOp(kind, b, loc, t, shfl.getShuffleResult());
    }
  // Across the warps: the warps' partials in warp order (each lane's where
  // a warp holds one lane, or lanes of rows it does not wholly hold).
  int64_t warps = lanes / lanesPerWarp;
  if (warps > 1) {
    Type elt = cast<MemRefType>(smem.getType()).getElementType();
    int64_t width = std::min<int64_t>(count, 16 / getElementBytes(elt));
    Value cSlot = cIdx(b, loc, slot);
    Value warp = arith::DivUIOp::create(b, loc, lane, cIdx(b, loc, lanesPerWarp));
    {
      OpBuilder::InsertionGuard guard(b);
      Value first = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq,
          arith::RemUIOp::create(b, loc, lane, cIdx(b, loc, lanesPerWarp)),
          cIdx(b, loc, 0));
      b.setInsertionPointToStart(
          &scf::IfOp::create(b, loc, first, false).getThenRegion().front());
      for (int64_t r = 0; r < count; r += width) {
        SmallVector<Value> elems;
        for (int64_t k = 0; k < width; ++k)
          elems.push_back(toExchange(b, loc, totals[r + k], elt));
        Value at = arith::AddIOp::create(b, loc, rowInBlock, cIdx(b, loc, r));
        if (width == 1) {
          memref::StoreOp::create(b, loc, elems[0], smem,
                                  ValueRange{cSlot, warp, at});
          continue;
        }
        Value v = vector::FromElementsOp::create(
            b, loc, VectorType::get({width}, elt), elems);
        vector::StoreOp::create(b, loc, v, smem, ValueRange{cSlot, warp, at},
                                /*nontemporal=*/false,
                                llvm::MaybeAlign(width * getElementBytes(elt)));
      }
    }
    gpu::BarrierOp::create(b, loc);
    SmallVector<Type> types;
    for (Value t : totals)
      types.push_back(t.getType());
    for (int64_t w = 0; w < warps; ++w) {
      for (int64_t r = 0; r < count; r += width) {
        Value at = arith::AddIOp::create(b, loc, rowInBlock, cIdx(b, loc, r));
        SmallVector<Value> got = loadLanes(
            b, loc, smem, ValueRange{cSlot, cIdx(b, loc, w), at}, width);
        for (int64_t k = 0; k < width; ++k) {
          Value x = fromExchange(b, loc, got[k], types[r + k]);
          totals[r + k] = w == 0 ? x
                                 : arith::getReductionOp(kind, b, loc,
                                                         totals[r + k], x);
        }
      }
    }
  }
  if (cluster.size > 1) {
    // Each row's lane 0 publishes the block's totals; every block combines
    // them in rank order.
    SmallVector<ClusterTotal> published;
    for (auto [r, t] : llvm::enumerate(totals))
      published.push_back({slot, t, (int64_t)r});
    SmallVector<SmallVector<Value>> ranks =
        exchangeTotals(b, loc, lane, cluster, published);
    for (auto [t, all] : llvm::zip(totals, ranks))
      t = reduceInOrder(b, loc, kind, all);
  }
  for (auto [t, p] : llvm::zip(totals, partials))
    if (t.getType() != p.getType())
      t = arith::TruncFOp::create(b, loc, p.getType(), t);
  return totals;
}

void kf::storeInterleavedResults(OpBuilder &b, MutableArrayRef<EmitState> sts,
                                 const Group &group, unsigned numChunks,
                                 Value isRowLeader) {
  EmitState &first = sts.front();
  Location loc = first.loc;
  int64_t count = sts.size();
  if (count == 1) {
    storeResults(b, first, group, numChunks, isRowLeader);
    return;
  }
  for (EmitState &st : sts)
    storeResults(b, st, group, numChunks, isRowLeader, StoreKind::RowScalars);
  unsigned numLoops = group.outer.size() + 1;
  for (auto [root, value] : group.written) {
    if (isGroupPrivate(root, group) || first.scalarValues.count(root))
      continue;
    auto mt = cast<MemRefType>(value.getType());
    AcrossRowsAccess access = getAcrossRowsAccess(
        value, AffineMap::getMultiDimIdentityMap(numLoops, b.getContext()),
        numLoops, count);
    for (unsigned c = 0; c < numChunks; ++c) {
      OpBuilder::InsertionGuard guard(b);
      if (first.chunkValid[c])
        b.setInsertionPointToStart(
            &scf::IfOp::create(b, loc, first.chunkValid[c], false)
                 .getThenRegion()
                 .front());
      if (access.kind == AcrossRowsAccess::Vector) {
        SmallVector<Value> idx(first.outerIds);
        idx.push_back(first.chunkBase[c]);
        SmallVector<Value> elems;
        for (EmitState &st : sts)
          elems.push_back(st.vecValues[root][c]);
        Value v = vector::FromElementsOp::create(
            b, loc, VectorType::get({count}, mt.getElementType()), elems);
        vector::StoreOp::create(
            b, loc, v, getFlatView(b, first, value),
            {getFlatIndex(b, loc, mt, idx)}, /*nontemporal=*/false,
            llvm::MaybeAlign(count * getElementBytes(mt.getElementType())));
        continue;
      }
      for (EmitState &st : sts) {
        SmallVector<Value> idx(st.outerIds);
        idx.push_back(st.chunkBase[c]);
        memref::StoreOp::create(b, loc, st.vecValues[root][c], value, idx);
      }
    }
  }
}
