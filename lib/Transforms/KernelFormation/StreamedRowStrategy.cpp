//===- StreamedRowStrategy.cpp - rows streamed in tiles -----*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The streamed row family (#memopt.streamed_row): rows too long for the
// registers of a block or a cluster (or on chips without clusters), and
// long rows whose group yields only row scalars in one pass (log-sum-exp
// over vocabulary rows: nothing needs the row on chip). One block per row
// walks the row in tiles of one chunk per thread, once per pass of
// reductions (recomputing the elementwise ops they need from the inputs)
// and once more for the row-shaped results. Reductions that read none of
// one another's results share a pass, and so does a maximum with the sum
// of exp(v - max) after it when `online_softmax` says so (each thread
// rescales its running sum when its running maximum grows). Only the
// first pass reads the inputs from DRAM when the rows in flight fit in L2;
// memopt-pipeline-loads then prefetches the tiles through shared memory.
//
//===----------------------------------------------------------------------===//

#include "EmitUtils.h"
#include "RowFamily.h"
#include "Strategies.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

StreamedPasses kf::planStreamedPasses(const Group &group, bool online) {
  StreamedPasses plan;
  plan.flushBefore.assign(group.ops.size(), false);
  // Buffers the pending pass's reductions write and read.
  DenseSet<Value> pendingWrites, pendingReads;
  bool pending = false;
  auto conflicts = [&](const GroupOp &g, Value exempt) {
    OpRoots roots = getOpRoots(g);
    for (Value r : roots.reads)
      if (r != exempt && pendingWrites.contains(r))
        return true;
    for (Value w : roots.writes)
      if (pendingWrites.contains(w) || pendingReads.contains(w))
        return true;
    return false;
  };
  auto join = [&](const GroupOp &g) {
    OpRoots roots = getOpRoots(g);
    pendingReads.insert(roots.reads.begin(), roots.reads.end());
    pendingWrites.insert(roots.writes.begin(), roots.writes.end());
    pending = true;
  };
  auto flush = [&] {
    pendingWrites.clear();
    pendingReads.clear();
    pending = false;
  };
  for (size_t k = 0; k < group.ops.size(); ++k) {
    const GroupOp &g = group.ops[k];
    bool conflict = conflicts(g, Value());
    if (g.role != RowRole::Reduce) {
      // Ops needing the pass's results wait for it (the next pass, or the
      // code after it, sees them).
      if (conflict) {
        flush();
        plan.flushBefore[k] = true;
      }
      continue;
    }
    std::optional<OnlineSoftmax> pair;
    if (online)
      pair = matchOnlineSoftmax(group, k);
    // (Row scalars computed between the two, such as the fill that seeds
    // the sum, must not need the maximum.)
    Value maxRoot = getRootBuffer(g.op.getDpsInits()[0]);
    if (pair && llvm::any_of(llvm::seq(k + 1, pair->sum), [&](size_t j) {
          const GroupOp &x = group.ops[j];
          if (x.role == RowRole::Vector)
            return false;
          return x.role != RowRole::Scalar ||
                 getOpRoots(x).reads.contains(maxRoot);
        }))
      pair.reset();
    if (conflict || !pending) {
      flush();
      plan.flushBefore[k] = true;
      ++plan.reductionPasses;
    }
    join(g);
    if (!pair)
      continue;
    bool inside = true;
    for (size_t j = k + 1; j <= pair->sum && inside; ++j)
      inside = !conflicts(group.ops[j], maxRoot);
    if (!inside)
      continue;
    for (size_t j = k + 1; j <= pair->sum; ++j)
      if (group.ops[j].role == RowRole::Reduce)
        join(group.ops[j]);
    plan.pairs[k] = *pair;
    k = pair->sum;
  }
  return plan;
}

/// Whether walks after the first re-read the row (a second reduction pass,
/// or the output walk of row-shaped results): one row in flight per
/// multiprocessor then, two otherwise.
static bool rereadsRow(const Group &group, const StreamedPasses &plan) {
  return plan.reductionPasses > 1 || hasRowShapedResults(group);
}

StreamedRowStrategyAttr
kf::selectStreamedRowStrategy(const Group &group,
                              const KernelTargetInfo &target,
                              const StreamedPasses *passes,
                              int64_t cluster) {
  // No lanes are held across tiles: the vector follows the elements read
  // along the row alone (8 lanes of bf16 beside f32 row statistics).
  int64_t vec = chooseRowAccessVectorWidth(group, target);
  int64_t threads = target.maxThreadsPerBlock;
  int64_t tiles = llvm::divideCeil(group.inner / vec, cluster * threads);
  // Rows not a multiple of the vector, in groups that write row scalars
  // only: chunks shifted to the buffers' alignment keep the accesses wide.
  // The tiles take the chunks whole for every alignment (1 to
  // inner / wide - 1), one more step the rest.
  int64_t wide = chooseRowAccessVectorWidth(group, target,
                                            /*rowsMayBeMisaligned=*/true);
  bool shifted = false;
  if (cluster == 1 && wide > vec && !hasRowShapedResults(group) &&
      group.inner / wide - 1 >= threads) {
    vec = wide;
    shifted = true;
    tiles = (group.inner / vec - 1) / threads;
  }
  // One row in flight per multiprocessor (a reservation of over half its
  // shared memory, which memopt-pipeline-loads' rings then use): the rows
  // in flight, whose later passes re-read them, stay within L2 for twice
  // longer rows than with two.
  int64_t reserved = target.sharedMemoryPerMultiprocessor / 2 + 1024;
  StreamedPasses plan =
      passes ? *passes : planStreamedPasses(group, /*online=*/true);
  // One walk over the row and nothing re-read: two rows in flight per
  // multiprocessor (a reservation that lets two blocks share its shared
  // memory, with the 1 KiB the system keeps per block and the reduction's
  // static buffer), twice the warps to hide the loads' latency behind the
  // math of each tile (log-sum-exp of bf16: an exp per 2 bytes).
  if (!rereadsRow(group, plan))
    reserved = target.sharedMemoryPerMultiprocessor / 2 - 2048;
  bool online = !plan.pairs.empty();
  return StreamedRowStrategyAttr::get(group.ops.front().op.getContext(), vec,
                                      threads, tiles, reserved, online,
                                      shifted, cluster);
}

FailureOr<StreamedRowStrategyAttr> kf::selectFewRowsStreamedStrategy(
    const Group &group, const KernelTargetInfo &target, int64_t clusterBlocks,
    int64_t slots, std::string &why) {
  int64_t rows = group.numRows();
  // Only where the row-on-chip form needs a second wave: one wave loads
  // every slice at once (softmax over 32 f32 rows of 262144 in clusters of
  // 16: 26.2 us, streamed over clusters of 4 35.0; log-sum-exp over 16
  // bf16 rows of 128256: 4.6 us, streamed over clusters of 8 6.0), and
  // more waves overlap one another's loads and stores (RMSNorm over 4096
  // f32 rows of 65536: 91% of copy). A second wave costs a whole
  // load-reduce-store round of its own (RMSNorm over 64 bf16 rows of
  // 262144: 32.9 us in clusters of 8, streamed over clusters of 2 29.3;
  // 256 rows of 65536: 30.1 us in clusters of 4, streamed 22.9; run 35).
  int64_t waves = llvm::divideCeil(clusterBlocks, slots);
  if (waves != 2) {
    why = "the row-on-chip form's " + std::to_string(clusterBlocks) +
          " blocks fill " + (waves < 2 ? "one wave" : "more than two waves") +
          " of " + std::to_string(slots);
    return failure();
  }
  // (The vector divides the row: chooseRowAccessVectorWidth without
  // misalignment halves it until it does.)
  int64_t vec = chooseRowAccessVectorWidth(group, target);
  int64_t threads = target.maxThreadsPerBlock;
  int64_t chunksPerRow = group.inner / vec;
  if (chunksPerRow < threads) {
    why = "the row is shorter than one tile";
    return failure();
  }
  StreamedPasses plan = planStreamedPasses(group, /*online=*/true);
  bool rereads = rereadsRow(group, plan);
  // Blocks in flight per multiprocessor (selectStreamedRowStrategy's
  // reservation).
  int64_t streamSlots = target.multiprocessors * (rereads ? 1 : 2);
  // The fewest blocks per row (a power of two within the portable cluster
  // size, every block with a slice) that use nine tenths of the slots of
  // every wave (of the multiprocessors, when there is one block per
  // multiprocessor or less), else the best use.
  StreamedRowStrategyAttr best;
  double bestUse = 0;
  int64_t limit =
      std::min<int64_t>(target.maxClusterSize, target.portableClusterSize);
  for (int64_t c = 1; c <= limit; c *= 2) {
    StreamedRowStrategyAttr s =
        selectStreamedRowStrategy(group, target, &plan, c);
    if ((c - 1) * s.getTiles() * threads >= chunksPerRow)
      break;
    // (A block per multiprocessor or fewer: the busy multiprocessors.)
    int64_t blocks = rows * c;
    double use =
        blocks <= (int64_t)target.multiprocessors
            ? (double)blocks / target.multiprocessors
            : (double)blocks / (double)(llvm::divideCeil(blocks, streamSlots) *
                                        streamSlots);
    if (use > bestUse + 1e-9) {
      best = s;
      bestUse = use;
    }
    if (use >= 0.9)
      break;
  }
  if (!best || bestUse < 0.75) {
    why = "no cluster of at most " + std::to_string(limit) +
          " blocks per row gives three quarters of the multiprocessors a "
          "block";
    return failure();
  }
  // Walks after the first re-read the rows in flight: they must fit in L2.
  if (rereads) {
    int64_t rowBytes = 0;
    DenseSet<Value> seen;
    for (const GroupOp &g : group.ops)
      for (auto access : getRowAccesses(g)) {
        Value root = getRootBuffer(access.first->get());
        // (A weight shared by every row is one row's bytes in L2 at most;
        // a single row's unit dim may be folded away.)
        AffineMap map = g.op.getMatchingIndexingMap(access.first);
        if (map.getNumDims() > 1 &&
            llvm::none_of(llvm::seq(0u, map.getNumDims() - 1),
                          [&](unsigned d) { return map.isFunctionOfDim(d); }))
          continue;
        if (isGroupPrivate(root, group) || !group.readExternal.contains(root) ||
            !seen.insert(root).second)
          continue;
        rowBytes += group.inner *
                    getElementBytes(cast<MemRefType>(access.first->get().getType())
                                        .getElementType());
      }
    int64_t c = best.getCluster();
    int64_t inFlight =
        std::min(rows * c, streamSlots) * llvm::divideCeil(rowBytes, c);
    if (inFlight > target.l2Bytes) {
      why = "the rows in flight (" + std::to_string(inFlight) +
            " bytes) would not stay in L2 (" + std::to_string(target.l2Bytes) +
            " bytes) for the walks that re-read them";
      return failure();
    }
  }
  return best;
}

LogicalResult kf::checkStreamedRowStrategy(const Group &group,
                                           StreamedRowStrategyAttr s,
                                           const KernelTargetInfo &target,
                                           Operation *anchor) {
  auto fail = [&] { return emitCannotHonour(anchor, s); };
  int64_t vec = s.getVector();
  int64_t threads = s.getThreads();
  FailureOr<MemRefType> exchange = checkRowBasics(
      group, s, vec, s.getShifted(), threads, " (use shifted = true)", target,
      anchor);
  if (failed(exchange))
    return failure();
  if (s.getOnlineSoftmax() &&
      planStreamedPasses(group, /*online=*/true).pairs.empty())
    return fail() << "online_softmax: no maximum is followed by a sum of "
                     "exp(v - max) that can share its pass";
  int64_t cluster = s.getCluster();
  int64_t chunksPerRow = group.inner / vec;
  if (cluster < 1)
    return fail() << "cluster must be at least 1";
  if (cluster > 1) {
    if (s.getShifted())
      return fail() << "cluster: not with shifted chunks";
    if (cluster > (int64_t)target.maxClusterSize)
      return fail() << "cluster of " << cluster
                    << " blocks is over the target's max-cluster-size ("
                    << target.maxClusterSize << ")";
    if ((cluster - 1) * s.getTiles() * threads >= chunksPerRow)
      return fail() << "the last of " << cluster << " slices of "
                    << s.getTiles() << " tiles of " << threads
                    << " chunks would hold none of the row's " << chunksPerRow
                    << " chunks";
  }
  if (s.getShifted()) {
    if (hasRowShapedResults(group))
      return fail() << "shifted: the group writes row-shaped results";
    // Chunks 1 to tiles * threads are whole for every alignment; the step
    // after the tiles gives each thread one of the rest.
    int64_t whole = group.inner / vec - 1;
    int64_t rest = getChunksPerRow(group.inner, vec, true) - 1 -
                   s.getTiles() * threads;
    if (s.getTiles() * threads > whole)
      return fail() << s.getTiles() << " tiles of " << threads
                    << " chunks pass the row's " << whole
                    << " chunks whole at every alignment";
    if (rest > threads)
      return fail() << "the " << rest << " chunks after " << s.getTiles()
                    << " tiles of " << threads
                    << " are more than one a thread";
  } else if (cluster * s.getTiles() * threads < chunksPerRow) {
    return fail() << s.getTiles() << " tiles of " << threads << " chunks"
                  << (cluster > 1
                          ? " in each of " + std::to_string(cluster) + " blocks"
                          : std::string())
                  << " do not cover the row's " << chunksPerRow << " chunks";
  }
  // The reservation, the block reduction's static buffer (and the
  // cluster's totals) and the 1 KiB the system keeps per block.
  int64_t staticBytes =
      blockStaticBytes(*exchange, /*warpPartials=*/true, cluster > 1 ? 1 : 0);
  if (s.getReservedSharedBytes() < 0 ||
      s.getReservedSharedBytes() + staticBytes + 1024 >
          (int64_t)target.maxSharedMemoryPerBlock)
    return fail() << "reserved_shared_bytes with the block's " << staticBytes
                  << " static bytes is over the target's "
                  << target.maxSharedMemoryPerBlock << " bytes per block";
  return success();
}

void kf::emitStreamedRowKernel(RewriterBase &b, Group &group,
                               StreamedRowStrategyAttr s,
                               const KernelTargetInfo &target) {
  Location loc = group.ops.front().op.getLoc();
  unsigned vec = s.getVector();
  int64_t rows = group.numRows();
  int64_t threads = s.getThreads();
  int64_t chunksPerRow = group.inner / vec;
  int64_t tiles = s.getTiles();
  int64_t clusterSize = s.getCluster();
  std::string why;
  // checkStreamedRowStrategy proved it.
  MemRefType exchange = *getExchangeType(b, group, target, why);
  SmallVector<Type> wgTypes{exchange};
  // A cluster's totals: one slot per reduction (see RowCluster).
  if (clusterSize > 1)
    wgTypes.push_back(MemRefType::get({exchange.getDimSize(0)},
                                      exchange.getElementType(), AffineMap(),
                                      exchange.getMemorySpace()));
  b.setInsertionPoint(group.ops.back().op);
  gpu::LaunchOp launch = createLaunch(b, loc, {rows * clusterSize}, {threads},
                                      wgTypes, clusterSize);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(launch);
    launch.getDynamicSharedMemorySizeMutable().assign(arith::ConstantOp::create(
        b, loc, b.getI32IntegerAttr(s.getReservedSharedBytes())));
  }
  Value tid = launch.getThreadIds().x;
  Value smem = launch.getWorkgroupAttributions().front();
  // Consecutive blocks along x form a cluster: block x walks slice
  // x mod C of row x / C.
  Value row = launch.getBlockIds().x;
  RowCluster cluster;
  cluster.size = clusterSize;
  Value sliceStart;
  if (clusterSize > 1) {
    Value cC = cIdx(b, loc, clusterSize);
    cluster.rank = arith::RemUIOp::create(b, loc, row, cC);
    cluster.totals = launch.getWorkgroupAttributions().back();
    row = arith::DivUIOp::create(b, loc, row, cC);
    sliceStart = arith::MulIOp::create(b, loc, cluster.rank,
                                       cIdx(b, loc, tiles * threads));
  }
  EmitState st(loc);
  initRowState(b, st, launch, group, vec, row);

  // The elementwise ops so far, each with the row scalars as they were at
  // its position (buffers are reused: softmax's maximum and sum share one).
  VectorOpList vectorOps;
  unsigned passes = 0;
  bool shifted = s.getShifted();
  auto setChunk = [&](Value t) {
    // Every other pass walks the row backwards: it starts with the tiles
    // the previous pass read last, the likeliest to be still in L2.
    if (passes % 2 == 1)
      t = arith::SubIOp::create(b, loc, cIdx(b, loc, tiles - 1), t);
    Value chunk = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, t, cIdx(b, loc, threads)), tid);
    if (sliceStart)
      chunk = arith::AddIOp::create(b, loc, chunk, sliceStart);
    if (shifted) {
      // Chunk 1 + t * threads + tid, whole at every alignment.
      setupShiftedChunks(
          b, st, row, {arith::AddIOp::create(b, loc, chunk, cIdx(b, loc, 1))},
          group.inner, rows, /*mayPassRow=*/false, /*whole=*/true);
      return;
    }
    st.chunkBase = {arith::MulIOp::create(b, loc, chunk, cIdx(b, loc, vec))};
    st.chunkValid = {
        clusterSize * tiles * threads == chunksPerRow
            ? Value()
            : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, chunk,
                                    cIdx(b, loc, chunksPerRow))
                  .getResult()};
  };
  StreamedPasses plan = planStreamedPasses(group, s.getOnlineSoftmax());
  // The pending pass: its reductions (an online pair by its maximum), each
  // with the row scalars at its position, and the elementwise ops that
  // compute a pair's exp values from its running maximum.
  struct Unit {
    size_t index;
    DenseMap<Value, Value> scalars;
    std::optional<OnlineSoftmax> pair;
    /// A pair's row scalars at its sum.
    DenseMap<Value, Value> sumScalars;
  };
  SmallVector<Unit> units;
  DenseMap<const GroupOp *, size_t> pairExps;
  unsigned slot = 0;
  // The rescaling of each pair's running sums (with the -inf guards).
  std::map<size_t, OnlineRescale> rescales;
  for (auto &[max, pair] : plan.pairs)
    rescales.try_emplace(max, b, loc, getOnlineExpFlags(group, pair));
  // One step of the pending pass over `numChunks` chunks a thread (set up
  // in `st`), from the accumulators `accs`: the elementwise ops, each
  // reduction's partial combined into its accumulator, and a pair's sum
  // from its running maximum, the running sum rescaled to it.
  auto tileStep = [&](ValueRange accs, unsigned numChunks) {
    DenseMap<Value, Value> current = st.scalarValues;
    for (auto &[g, scalars] : vectorOps) {
      if (pairExps.count(g))
        continue;
      st.scalarValues = scalars;
      Value unused;
      emitOp(b, st, *g, numChunks, unused);
    }
    SmallVector<Value> next;
    unsigned arg = 0;
    for (Unit &u : units) {
      const GroupOp &g = group.ops[u.index];
      st.scalarValues = u.scalars;
      Value partial;
      emitOp(b, st, g, numChunks, partial);
      Value acc = accs[arg++];
      Value combined = arith::getReductionOp(g.kind, b, loc, acc, partial);
      next.push_back(combined);
      if (!u.pair)
        continue;
      OnlineRescale &rescale = rescales.at(u.index);
      Value maxRoot = getRootBuffer(g.op.getDpsInits()[0]);
      Value used = rescale.usable(combined);
      for (auto &[e, scalars] : vectorOps) {
        auto it = pairExps.find(e);
        if (it == pairExps.end() || it->second != u.index)
          continue;
        st.scalarValues = scalars;
        st.scalarValues[maxRoot] = used;
        Value unused;
        emitOp(b, st, *e, numChunks, unused);
      }
      const GroupOp &sum = group.ops[u.pair->sum];
      st.scalarValues = u.sumScalars;
      st.scalarValues[maxRoot] = used;
      Value sumPartial;
      emitOp(b, st, sum, numChunks, sumPartial);
      Value sumAcc = accs[arg++];
      next.push_back(arith::AddFOp::create(
          b, loc,
          arith::MulFOp::create(b, loc, sumAcc, rescale.scaleTo(acc, used)),
          sumPartial));
    }
    st.scalarValues = std::move(current);
    return next;
  };
  auto flush = [&] {
    if (units.empty())
      return;
    SmallVector<Value> inits;
    for (Unit &u : units) {
      const GroupOp &g = group.ops[u.index];
      if (u.pair) {
        OnlineRescale &r = rescales.at(u.index);
        inits.append({r.ninf, r.zero});
        continue;
      }
      inits.push_back(arith::getIdentityValue(
          g.kind, g.op.getBody()->getArgument(g.op.getNumDpsInputs()).getType(),
          b, loc));
    }
    auto forOp = scf::ForOp::create(b, loc, cIdx(b, loc, 0),
                                    cIdx(b, loc, tiles), cIdx(b, loc, 1),
                                    inits);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(forOp.getBody());
      setChunk(forOp.getInductionVar());
      scf::YieldOp::create(b, loc, tileStep(forOp.getRegionIterArgs(), 1));
    }
    st.vecValues.clear();
    st.loadCache.clear();
    SmallVector<Value> results(forOp.getResults());
    if (shifted) {
      // The chunks after the tiles (one a thread) and chunk 0 (thread 0),
      // lanes outside the row masked.
      Value rest = arith::AddIOp::create(
          b, loc, cIdx(b, loc, 1 + tiles * threads), tid);
      Value first = arith::SelectOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                cIdx(b, loc, 0)),
          cIdx(b, loc, 0),
          cIdx(b, loc, getChunksPerRow(group.inner, vec, true)));
      setupShiftedChunks(b, st, row, {rest, first}, group.inner, rows,
                         /*mayPassRow=*/true);
      results = tileStep(results, 2);
      st.vecValues.clear();
      st.loadCache.clear();
    }
    ++passes;
    unsigned res = 0;
    for (Unit &u : units) {
      const GroupOp &g = group.ops[u.index];
      Value partial = results[res++];
      if (!u.pair) {
        finishReduction(b, st, g, partial, threads, target, tid, smem, slot++,
                        &cluster);
        continue;
      }
      // The row's maximum (with the output's initial value), each thread's
      // sum rescaled to it, then the row's sum.
      Value maxRoot = getRootBuffer(g.op.getDpsInits()[0]);
      finishReduction(b, st, g, partial, threads, target, tid, smem, slot++,
                      &cluster);
      Value rowMax = st.scalarValues.lookup(maxRoot);
      const GroupOp &sum = group.ops[u.pair->sum];
      OnlineRescale &rescale = rescales.at(u.index);
      Value scaled = arith::MulFOp::create(
          b, loc, results[res++],
          rescale.scaleTo(partial, rescale.usable(rowMax)));
      Value total = blockReduce(b, loc, scaled, sum.kind, threads,
                                target.warpSize, tid, smem, slot++,
                                &cluster);
      setReductionResult(b, st, sum, total);
      // Later passes compute the exp values from the row's maximum.
      for (auto &[e, scalars] : vectorOps) {
        auto it = pairExps.find(e);
        if (it != pairExps.end() && it->second == u.index)
          scalars[maxRoot] = rowMax;
      }
    }
    units.clear();
    pairExps.clear();
  };
  for (size_t k = 0; k < group.ops.size(); ++k) {
    const GroupOp &g = group.ops[k];
    if (g.role == RowRole::Reduce) {
      if (plan.flushBefore[k])
        flush();
      units.push_back({k, st.scalarValues, std::nullopt});
      auto pair = plan.pairs.find(k);
      if (pair == plan.pairs.end())
        continue;
      units.back().pair = pair->second;
      // The ops in between are elementwise, or row scalars that do not
      // need the maximum (planStreamedPasses): the elementwise ones reading
      // the maximum take the running one.
      Value maxRoot = getRootBuffer(g.op.getDpsInits()[0]);
      for (size_t j = k + 1; j < pair->second.sum; ++j) {
        const GroupOp *e = &group.ops[j];
        if (e->role == RowRole::Scalar) {
          Value unused;
          emitOp(b, st, *e, 1, unused);
          continue;
        }
        vectorOps.push_back({e, st.scalarValues});
        if (llvm::any_of(e->op.getDpsInputs(), [&](Value v) {
              return getRootBuffer(v) == maxRoot;
            }))
          pairExps[e] = k;
      }
      units.back().sumScalars = st.scalarValues;
      k = pair->second.sum;
      continue;
    }
    // An op after the pending pass that needs its results (or replaces
    // what it reads) waits for it.
    if (plan.flushBefore[k])
      flush();
    if (g.role == RowRole::Vector) {
      vectorOps.push_back({&g, st.scalarValues});
      continue;
    }
    Value unused;
    emitOp(b, st, g, 1, unused);
  }
  flush();
  // Every block has read what the group overwrites (a reduction's initial
  // value, read after each exchange) before any stores. Otherwise the
  // blocks of a cluster arrive at a split cluster barrier after their last
  // distributed shared memory read and wait for it only before exiting (no
  // block may exit while another still reads its totals).
  bool overwrites = overwritesItsInput(group);
  bool clusterReads = clusterSize > 1 && slot > 0;
  if (overwrites && clusterSize > 1)
    ClusterBarrierOp::create(b, loc);
  else if (overwrites)
    gpu::BarrierOp::create(b, loc);
  else if (clusterReads)
    ClusterArriveOp::create(b, loc);
  if (hasRowShapedResults(group))
    emitChunkPass(b, st, group, vectorOps, nullptr, tiles, [&](Value t) {
      setChunk(t);
    });
  Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                       cIdx(b, loc, 0));
  if (clusterSize > 1)
    leader = arith::AndIOp::create(
        b, loc, leader,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, cluster.rank,
                              cIdx(b, loc, 0)));
  storeResults(b, st, group, 1, leader, StoreKind::RowScalars);
  if (clusterReads && !overwrites)
    ClusterWaitOp::create(b, loc);
}
