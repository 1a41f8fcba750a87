//===- RowEmit.cpp - row kernels: the emitter -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The row family's emitter (#memopt.row): a block or cluster per row, or
// several rows per block; see RowStrategy.cpp for the family and its
// selection.
//
//===----------------------------------------------------------------------===//
#include "RowFamily.h"
#include "Strategies.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

void kf::emitRowKernel(RewriterBase &b, Group &group, RowStrategyAttr s,
                       const KernelTargetInfo &target) {
  Location loc = group.ops.front().op.getLoc();
  bool interleaved = s.getInterleaved();
  // Interleaved rows: `vector` is the rows a thread holds, one vector
  // across them; along the row one element at a time.
  int64_t rowsPerThread = interleaved ? s.getVector() : 1;
  unsigned vec = interleaved ? 1 : s.getVector();
  bool shifted = s.getShifted();
  int64_t rows = group.numRows();
  int64_t chunksPerRow = getChunksPerRow(group.inner, vec, shifted);
  int64_t threads = s.getThreads();
  int64_t numChunks = s.getChunks();
  int64_t clusterSize = s.getCluster();
  int64_t sharedChunks = s.getSharedChunks();
  int64_t blocksPerMultiprocessor = s.getBlocksPerMultiprocessor();
  std::string why;
  // checkRowStrategy proved that the reductions share one exchange type.
  MemRefType exchange = *getExchangeType(b, group, target, why);
  int64_t numReduce = exchange.getDimSize(0);
  SmallVector<Type> wgTypes;
  SmallVector<StagedInput> sliceStaged;
  int64_t sliceBytes = 0;
  if (sharedChunks > 0) {
    bool tooBig = false;
    sliceStaged = selectStagedInputs(
        group, target, sharedChunks, threads, vec, blocksPerMultiprocessor,
        blockStaticBytes(exchange, threads > (int64_t)target.warpSize, 1),
        sliceBytes, tooBig);
  }
  int64_t rowsPerBlock = s.getRowsPerBlock();
  // Threads across the block's rows, and with several rows a thread the
  // warps holding each row (their partials are combined within each warp
  // first).
  int64_t quads = rowsPerBlock / rowsPerThread;
  int64_t rowWarps =
      threads / getInterleavedLanesPerWarp(quads, target.warpSize);
  // The block's partials: a warp's per reduction, or with interleaved rows
  // every warp's of each row ([reductions][warps of a row][rows]).
  bool blockExchange =
      interleaved ? rowWarps > 1 : threads > target.warpSize;
  if (interleaved && blockExchange)
    wgTypes.push_back(MemRefType::get(
        {numReduce, rowWarps, rowsPerBlock}, exchange.getElementType(),
        AffineMap(), exchange.getMemorySpace()));
  else if (blockExchange)
    wgTypes.push_back(exchange);
  // (The last block's slots past the last row, where rows_per_block does
  // not divide them, load the last row again and store nothing.)
  int64_t gridClusters = llvm::divideCeil(rows, rowsPerBlock);
  int64_t columnPartials = s.getColumnPartials();
  if (columnPartials > 0)
    gridClusters = columnPartials;
  // Column accumulators in shared memory: the last workgroup buffer.
  bool sharedAccumulators = s.getSharedAccumulators();
  if (sharedAccumulators) {
    Type accType;
    for (const GroupOp &g : group.ops)
      if (g.role == RowRole::ColumnReduce)
        accType = g.op.getBody()->getArgument(g.op.getNumDpsInputs()).getType();
    wgTypes.push_back(MemRefType::get(
        {rowsPerBlock, (int64_t)group.columnWritten.size(), group.inner},
        accType, AffineMap(), exchange.getMemorySpace()));
  }
  SmallVector<StagedInput> staged;
  int64_t stagingBytes = 0;
  if (clusterSize > 1 && sharedChunks > 0) {
    wgTypes.push_back(MemRefType::get({exchange.getDimSize(0)},
                                      exchange.getElementType(), AffineMap(),
                                      exchange.getMemorySpace()));
  } else if (clusterSize > 1) {
    if (s.getPersistentClusters() > 0) {
      // Totals of two rows (see RowCluster).
      bool tooBig = false;
      staged = selectStagedInputs(
          group, target, numChunks, threads, vec, blocksPerMultiprocessor,
          blockStaticBytes(exchange, threads > (int64_t)target.warpSize, 2),
          stagingBytes, tooBig);
      gridClusters = s.getPersistentClusters();
    }
    SmallVector<int64_t> totalsShape;
    if (!staged.empty())
      totalsShape.push_back(2);
    totalsShape.push_back(numReduce);
    if (interleaved)
      totalsShape.push_back(rowsPerBlock);
    wgTypes.push_back(MemRefType::get(totalsShape, exchange.getElementType(),
                                      AffineMap(), exchange.getMemorySpace()));
  }
  bool persistent = !staged.empty();

  // Insert at the last op: every view the group uses is defined by then,
  // and only allocations, views and constants sit between group members.
  b.setInsertionPoint(group.ops.back().op);
  // Column partials: one [blocks * rows_per_block, inner] workspace per
  // column reduction.
  SmallVector<Value> workspaces;
  for (const GroupOp &g : group.ops)
    if (g.role == RowRole::ColumnReduce)
      workspaces.push_back(memref::AllocOp::create(
          b, loc,
          MemRefType::get(
              {columnPartials * (s.getSharedAccumulators() ? 1 : rowsPerBlock),
               group.inner},
              cast<MemRefType>(g.op.getDpsInits()[0].getType())
                  .getElementType())));
  Value dynamicBytes;
  if (persistent || sharedChunks > 0)
    dynamicBytes = arith::ConstantOp::create(
        b, loc, b.getI32IntegerAttr(persistent ? stagingBytes : sliceBytes));
  gpu::LaunchOp launch =
      createLaunch(b, loc, {gridClusters * clusterSize},
                   {threads * rowsPerBlock / rowsPerThread}, wgTypes,
                   clusterSize);
  if (dynamicBytes)
    launch.getDynamicSharedMemorySizeMutable().assign(dynamicBytes);
  if (persistent)
    launch->setAttr(kPersistentAttrName, b.getUnitAttr());
  Value row = launch.getBlockIds().x;
  Value blockId = row;
  Value tid = launch.getThreadIds().x;
  // Several rows per block: this thread's row of the block.
  Value rowSlot;
  RowCluster cluster;
  cluster.size = clusterSize;
  scf::ForOp columnLoop;
  // The next row's prefetched inputs, yielded after the accumulators.
  SmallVector<Value> prefetchYields;
  // Interleaved rows: row x * R + t mod R of the block's cluster x (its
  // rank within), held by the threads t / R of that row; with V rows a
  // thread, rows x * R + (t mod (R / V)) * V + r, r < V, held by the
  // threads t / (R / V).
  Value rowInBlock;
  if (interleaved) {
    Value block = row;
    if (clusterSize > 1) {
      Value cC = cIdx(b, loc, clusterSize);
      cluster.rank = arith::RemUIOp::create(b, loc, block, cC);
      block = arith::DivUIOp::create(b, loc, block, cC);
    }
    Value cR = cIdx(b, loc, rowsPerBlock);
    Value cQ = cIdx(b, loc, quads);
    rowInBlock = arith::RemUIOp::create(b, loc, tid, cQ);
    if (rowsPerThread > 1)
      rowInBlock = arith::MulIOp::create(b, loc, rowInBlock,
                                         cIdx(b, loc, rowsPerThread));
    row = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, block, cR), rowInBlock);
    tid = arith::DivUIOp::create(b, loc, tid, cQ);
  } else if (rowsPerBlock > 1) {
    // Row bid * R + tid / T, held by threads tid mod T.
    Value cT = cIdx(b, loc, threads);
    rowSlot = arith::DivUIOp::create(b, loc, tid, cT);
    if (columnPartials == 0)
      row = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, row, cIdx(b, loc, rowsPerBlock)),
          rowSlot);
    tid = arith::RemUIOp::create(b, loc, tid, cT);
  }
  Value smem;
  if (blockExchange)
    smem = launch.getWorkgroupAttributions().front();
  // Chunks of the row before this block's slice.
  Value sliceStart = cIdx(b, loc, 0);
  if (clusterSize > 1) {
    // Consecutive blocks along x form a cluster: block x holds slice
    // x mod C of row x / C (of rows x / C, x / C + clusters, ... when the
    // clusters are persistent).
    Value cC = cIdx(b, loc, clusterSize);
    cluster.totals = launch.getWorkgroupAttributions().back();
    cluster.row = rowInBlock;
    if (!interleaved) {
      cluster.rank = arith::RemUIOp::create(b, loc, row, cC);
      row = arith::DivUIOp::create(b, loc, row, cC);
    }
    sliceStart = arith::MulIOp::create(
        b, loc, cluster.rank,
        cIdx(b, loc, (numChunks + sharedChunks) * threads));
  }
  Value rowValid;
  if (columnPartials == 0 && rows % rowsPerBlock != 0) {
    // (Several rows a thread: the rows divide into whole groups of them,
    // so a group lies wholly before the last row or wholly past it.)
    Value last = cIdx(b, loc, rows - 1);
    rowValid =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, row, last);
    row = arith::MinUIOp::create(b, loc, row,
                                 cIdx(b, loc, rows - rowsPerThread));
  }
  // The row this block holds when blocks walk the outer dims in another
  // order than memory order.
  row = getOrderedRow(b, loc, row, group.outer, s.getBlockOrder());
  if (blocksPerMultiprocessor > 1)
    OccupancyHintOp::create(b, loc, blocksPerMultiprocessor);
  EmitState st(loc);
  bool mayPassRow =
      clusterSize * (numChunks + sharedChunks) * threads > chunksPerRow;
  if (shifted) {
    initRowState(b, st, launch, group, vec, row);
    SmallVector<Value> chunks;
    for (int64_t c = 0; c < numChunks; ++c)
      chunks.push_back(arith::AddIOp::create(
          b, loc, sliceStart,
          arith::AddIOp::create(b, loc, cIdx(b, loc, c * threads), tid)));
    setupShiftedChunks(b, st, row, chunks, group.inner, rows, mayPassRow);
  }
  for (int64_t c = 0; !shifted && c < numChunks; ++c) {
    // Chunk c of thread t covers inner [(c*T + t)*v, +v) of its slice:
    // coalesced.
    Value chunk = arith::AddIOp::create(
        b, loc, sliceStart,
        arith::AddIOp::create(b, loc, cIdx(b, loc, c * threads), tid));
    Value base = arith::MulIOp::create(b, loc, chunk, cIdx(b, loc, vec));
    st.chunkBase.push_back(base);
    if (clusterSize > 1 ? mayPassRow : (c + 1) * threads > chunksPerRow)
      st.chunkValid.push_back(
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, chunk,
                                cIdx(b, loc, chunksPerRow)));
    else
      st.chunkValid.push_back(Value());
  }
  if (persistent) {
    // Each cluster walks rows first, first + clusters, ...: the slice of
    // the next row is copied into shared memory (cp.async) while this one
    // is reduced and written, so DRAM reads never wait for the exchange.
    Value dyn = gpu::DynamicSharedMemoryOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                        exchange.getMemorySpace()));
    for (StagedInput &in : staged)
      in.view = memref::ViewOp::create(
          b, loc,
          MemRefType::get({numChunks, threads, (int64_t)vec}, in.elementType,
                          AffineMap(), exchange.getMemorySpace()),
          dyn, cIdx(b, loc, in.offset), ValueRange{});
    Value first = row;
    Value step = arith::DivUIOp::create(b, loc, launch.getGridSize().x,
                                        cIdx(b, loc, clusterSize));
    emitRowPrefetch(b, loc, group, staged, st.chunkBase, st.chunkValid, first,
                    tid, vec);
    auto rowLoop = scf::ForOp::create(b, loc, first, cIdx(b, loc, rows), step);
    b.setInsertionPoint(rowLoop.getBody()->getTerminator());
    // Rows begin and end at a barrier (the host emulation splits phases
    // there; the block's shared memory changes hands between rows).
    gpu::BarrierOp::create(b, loc);
    row = rowLoop.getInductionVar();
    Value iteration = arith::DivUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, row, first), step);
    cluster.parity = arith::RemUIOp::create(b, loc, iteration, cIdx(b, loc, 2));
    // This row's slice is in shared memory once this thread's copies are
    // done (each thread reads back only what it copied).
    waitForOwnCopies(b, loc);
    initRowState(b, st, launch, group, vec, row);
    for (StagedInput &in : staged) {
      SmallVector<Value> lanes;
      for (int64_t c = 0; c < numChunks; ++c)
        llvm::append_range(
            lanes, loadLanes(b, loc, in.view,
                             {cIdx(b, loc, c), tid, cIdx(b, loc, 0)}, vec));
      st.loadCache[std::make_tuple(in.memref, in.map, 1)] = lanes;
    }
    // The staging buffer is read before the next row's copies overwrite it.
    gpu::BarrierOp::create(b, loc);
    Value next = arith::AddIOp::create(b, loc, row, step);
    auto ifOp = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, next,
                              cIdx(b, loc, rows)),
        /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      emitRowPrefetch(b, loc, group, staged, st.chunkBase, st.chunkValid, next,
                      tid, vec);
    }
  } else if (columnPartials > 0) {
    // Block x walks the row groups x, x + blocks, ...; its threads'
    // column accumulators (one per lane) are the loop's values, or their
    // columns of the block's buffer in shared memory.
    SmallVector<Value> inits;
    unsigned index = 0;
    if (sharedAccumulators) {
      st.columnShared = launch.getWorkgroupAttributions().back();
      st.columnSlot = rowSlot ? rowSlot : cIdx(b, loc, 0);
    }
    for (const GroupOp &g : group.ops) {
      if (g.role != RowRole::ColumnReduce)
        continue;
      st.columnIndex[g.op] = index++;
      Value identity = arith::getIdentityValue(
          g.kind, g.op.getBody()->getArgument(g.op.getNumDpsInputs()).getType(),
          b, loc);
      if (!sharedAccumulators) {
        inits.append(numChunks * vec, identity);
        continue;
      }
      for (int64_t c = 0; c < numChunks; ++c) {
        OpBuilder::InsertionGuard guard(b);
        if (Value valid = st.chunkValid[c]) {
          auto ifOp = scf::IfOp::create(b, loc, valid, false);
          b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        }
        for (unsigned l = 0; l < vec; ++l)
          memref::StoreOp::create(b, loc, identity, st.columnShared,
                                  getSharedAccumulatorIndex(b, st, g.op, c, l));
      }
    }
    // Inputs read along the row, prefetched `depth` rows ahead: the first
    // `depth` rows' before the loop (in row order), then one row further
    // when a row starts, carried by the loop (the rows past the last load
    // the last one again).
    SmallVector<std::pair<linalg::GenericOp, OpOperand *>> prefetched;
    unsigned accValues = inits.size();
    int64_t depth = s.getPrefetchRows();
    int64_t rowGroups = rows / rowsPerBlock;
    auto rowOf = [&](Value group) -> Value {
      if (!rowSlot)
        return group;
      return arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, group, cIdx(b, loc, rowsPerBlock)),
          rowSlot);
    };
    // Row group `base + ahead * column_partials`, at most the last one.
    auto aheadOf = [&](Value base, int64_t ahead) -> Value {
      if (ahead == 0)
        return base;
      return arith::MinUIOp::create(
          b, loc,
          arith::AddIOp::create(b, loc, base,
                                cIdx(b, loc, ahead * columnPartials)),
          cIdx(b, loc, rowGroups - 1));
    };
    if (depth > 0) {
      prefetched = getInputsReadAlongRows(group);
      for (int64_t d = 0; d < depth; ++d) {
        initRowState(b, st, launch, group, vec, rowOf(aheadOf(blockId, d)));
        for (auto [op, in] : prefetched)
          llvm::append_range(inits, loadOperandUncached(b, st, op, *in,
                                                        RowRole::Vector,
                                                        numChunks));
      }
    }
    columnLoop = scf::ForOp::create(b, loc, blockId,
                                    cIdx(b, loc, rows / rowsPerBlock),
                                    cIdx(b, loc, columnPartials), inits);
    // (A loop with values gets no terminator from its builder.)
    b.setInsertionPointToStart(columnLoop.getBody());
    if (!inits.empty())
      scf::YieldOp::create(b, loc, columnLoop.getRegionIterArgs());
    b.setInsertionPoint(columnLoop.getBody()->getTerminator());
    // Rows begin and end at a barrier (the block's shared memory changes
    // hands between rows; the host emulation splits phases there).
    gpu::BarrierOp::create(b, loc);
    unsigned k = 0;
    for (const GroupOp &g : group.ops)
      if (g.role == RowRole::ColumnReduce && !sharedAccumulators) {
        auto args = columnLoop.getRegionIterArgs().slice(k, numChunks * vec);
        st.columnAcc[g.op] = SmallVector<Value>(args.begin(), args.end());
        k += numChunks * vec;
      }
    row = rowOf(columnLoop.getInductionVar());
    if (!prefetched.empty()) {
      // The loads `depth` rows ahead first, then this row's inputs are the
      // loop's first prefetched values; the others move up one row.
      unsigned perRow = prefetched.size() * numChunks * vec;
      llvm::append_range(prefetchYields, columnLoop.getRegionIterArgs().slice(
                                             accValues + perRow,
                                             (depth - 1) * perRow));
      initRowState(b, st, launch, group, vec,
                   rowOf(aheadOf(columnLoop.getInductionVar(), depth)));
      for (auto [op, in] : prefetched)
        llvm::append_range(prefetchYields,
                           loadOperandUncached(b, st, op, *in, RowRole::Vector,
                                               numChunks));
      initRowState(b, st, launch, group, vec, row);
      unsigned at = accValues;
      for (auto [op, in] : prefetched) {
        auto lanes = columnLoop.getRegionIterArgs().slice(at, numChunks * vec);
        at += numChunks * vec;
        st.loadCache[std::make_tuple(in->get(),
                                     op.getMatchingIndexingMap(in), 1)] =
            SmallVector<Value>(lanes.begin(), lanes.end());
      }
    } else {
      initRowState(b, st, launch, group, vec, row);
    }
  } else if (!shifted) {
    initRowState(b, st, launch, group, vec, row);
  }
  // The part of the slice held in shared memory: chunks numChunks.. of the
  // block, copied in now (while the registers' chunks load) and read back
  // by passes that replay the elementwise ops for one chunk at a time.
  // Shared chunk `j` of this thread: its first element and whether it lies
  // in the row (null when every chunk does).
  auto sharedChunkAt = [&](Value j) -> std::pair<Value, Value> {
    Value chunk = arith::AddIOp::create(
        b, loc, sliceStart,
        arith::AddIOp::create(
            b, loc,
            arith::MulIOp::create(
                b, loc,
                arith::AddIOp::create(b, loc, j, cIdx(b, loc, numChunks)),
                cIdx(b, loc, threads)),
            tid));
    Value base = arith::MulIOp::create(b, loc, chunk, cIdx(b, loc, vec));
    Value valid;
    if (mayPassRow)
      valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, chunk,
                                    cIdx(b, loc, chunksPerRow));
    return {base, valid};
  };
  SmallVector<Value> sharedBase, sharedValid;
  for (int64_t j = 0; j < sharedChunks; ++j) {
    auto [base, valid] = sharedChunkAt(cIdx(b, loc, j));
    sharedBase.push_back(base);
    sharedValid.push_back(valid);
  }
  if (sharedChunks > 0) {
    Value dyn = gpu::DynamicSharedMemoryOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                        exchange.getMemorySpace()));
    for (StagedInput &in : sliceStaged) {
      in.view = memref::ViewOp::create(
          b, loc,
          MemRefType::get({sharedChunks, threads, (int64_t)vec}, in.elementType,
                          AffineMap(), exchange.getMemorySpace()),
          dyn, cIdx(b, loc, in.offset), ValueRange{});
      st.stagedViews[{in.memref, in.map}] = in.view;
    }
    emitRowPrefetch(b, loc, group, sliceStaged, sharedBase, sharedValid, row,
                    tid, vec);
  }
  VectorOpList vectorOps;
  bool copiesDone = false;
  // One pass over the chunks in shared memory: the elementwise ops so far,
  // then reduction `reduce` (returns the thread partial) or the stores of
  // the row-shaped results.
  auto sharedPass = [&](const GroupOp *reduce) -> Value {
    if (!copiesDone) {
      // Each thread reads back only what it copied.
      waitForOwnCopies(b, loc);
      copiesDone = true;
    }
    // The register chunks' state stays for after the pass.
    SmallVector<Value> savedBase = st.chunkBase, savedValid = st.chunkValid;
    auto savedVec = std::move(st.vecValues);
    auto savedCache = std::move(st.loadCache);
    Value result = emitChunkPass(b, st, group, vectorOps, reduce, sharedChunks,
                                 [&](Value j) {
                                   auto [base, valid] = sharedChunkAt(j);
                                   st.chunkBase = {base};
                                   st.chunkValid = {valid};
                                   st.stagedChunk = j;
                                   st.stagedTid = tid;
                                 });
    st.chunkBase = std::move(savedBase);
    st.chunkValid = std::move(savedValid);
    st.vecValues = std::move(savedVec);
    st.loadCache = std::move(savedCache);
    st.stagedChunk = Value();
    return result;
  };
  unsigned slot = 0;
  // Interleaved rows: one state per row a thread holds (their loads
  // shared where there are several), each reduction combined for all of
  // them at once.
  RowReplicas replicaShared;
  SmallVector<EmitState, 0> replicas;
  if (interleaved) {
    if (rowsPerThread > 1) {
      replicaShared.count = rowsPerThread;
      st.replicas = &replicaShared;
    }
    for (int64_t r = 0; r < rowsPerThread; ++r) {
      replicas.push_back(st);
      replicas.back().replica = r;
      if (r > 0)
        replicas.back().outerIds.back() = arith::AddIOp::create(
            b, loc, st.outerIds.back(), cIdx(b, loc, r));
    }
    for (const GroupOp &g : group.ops) {
      SmallVector<Value> partials;
      for (EmitState &rs : replicas) {
        Value p;
        emitOp(b, rs, g, numChunks, p);
        partials.push_back(p);
      }
      if (g.role != RowRole::Reduce)
        continue;
      SmallVector<Value> totals = interleavedRowReduce(
          b, loc, partials, g.kind, threads, tid, rowInBlock, quads,
          target.warpSize, smem, slot++, cluster);
      for (auto [rs, total] : llvm::zip(replicas, totals))
        setReductionResult(b, rs, g, total);
    }
  }
  for (size_t i = 0; replicas.empty() && i < group.ops.size(); ++i) {
    const GroupOp &g = group.ops[i];
    if (sharedChunks > 0 && g.role == RowRole::Vector)
      vectorOps.push_back({&g, st.scalarValues});
    Value partial;
    emitOp(b, st, g, numChunks, partial);
    if (g.role != RowRole::Reduce)
      continue;
    std::optional<OnlineSoftmax> online;
    if (s.getOnlineSoftmax())
      online = matchOnlineSoftmax(group, i);
    if (sharedChunks > 0)
      partial = arith::getReductionOp(g.kind, b, loc, partial, sharedPass(&g));
    if (!online && clusterSize == 1 && sharedChunks == 0) {
      // Reductions right after this one that read none of the batch's
      // results are reduced with it, at one barrier.
      SmallVector<const GroupOp *> batch = {&g};
      SmallVector<Value> partials = {partial};
      DenseSet<Value> results = {getRootBuffer(g.op.getDpsInits()[0])};
      while (i + 1 < group.ops.size()) {
        const GroupOp &next = group.ops[i + 1];
        // (Online softmax needs a cluster: not on this path.)
        if (next.role != RowRole::Reduce ||
            llvm::any_of(next.op->getOperands(), [&](Value v) {
              return isa<MemRefType>(v.getType()) &&
                     results.contains(getRootBuffer(v));
            }))
          break;
        Value p;
        emitOp(b, st, next, numChunks, p);
        batch.push_back(&next);
        partials.push_back(p);
        results.insert(getRootBuffer(next.op.getDpsInits()[0]));
        ++i;
      }
      SmallVector<arith::AtomicRMWKind> kinds;
      for (const GroupOp *r : batch)
        kinds.push_back(r->kind);
      SmallVector<Value> totals =
          blockReduceMany(b, loc, partials, kinds, threads, target.warpSize,
                          tid, smem, slot);
      slot += batch.size();
      for (auto [r, total] : llvm::zip(batch, totals))
        setReductionResult(b, st, *r, total);
      continue;
    }
    if (!online) {
      finishReduction(b, st, g, partial, threads, target, tid, smem, slot++,
                      &cluster);
      continue;
    }
    if (sharedChunks > 0)
      emitOnlineSoftmax(b, st, group, i, *online, partial, numChunks, threads,
                        target, tid, smem, cluster, slot, &vectorOps,
                        sharedPass);
    else
      emitOnlineSoftmax(b, st, group, i, *online, partial, numChunks, threads,
                        target, tid, smem, cluster, slot);
    slot += 2;
    i = online->sum;
  }
  // Every block of the cluster has read what it overwrites (a reduction's
  // initial value) before any stores. Otherwise the blocks arrive at a
  // split cluster barrier once their last distributed shared memory read is
  // done and wait for it only before exiting (no block may exit while
  // another still reads its totals), so the stores do not wait. Persistent
  // clusters meet once more after their last row instead.
  bool clusterReads = clusterSize > 1 && slot > 0;
  bool overwrites = overwritesItsInput(group);
  if (overwrites && clusterSize > 1)
    ClusterBarrierOp::create(b, loc);
  else if (overwrites)
    gpu::BarrierOp::create(b, loc);
  else if (clusterReads && !persistent)
    ClusterArriveOp::create(b, loc);
  Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                       cIdx(b, loc, 0));
  if (clusterSize > 1)
    leader = arith::AndIOp::create(
        b, loc, leader,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, cluster.rank,
                              cIdx(b, loc, 0)));
  {
    OpBuilder::InsertionGuard guard(b);
    if (rowValid)
      b.setInsertionPointToStart(
          &scf::IfOp::create(b, loc, rowValid, false).getThenRegion().front());
    if (!replicas.empty())
      storeInterleavedResults(b, replicas, group, numChunks, leader);
    else
      storeResults(b, st, group, numChunks, leader);
  }
  bool rowResults = llvm::any_of(group.written, [&](auto &entry) {
    return group.writtenIsVector.lookup(entry.first) &&
           !isGroupPrivate(entry.first, group);
  });
  if (sharedChunks > 0 && rowResults)
    sharedPass(nullptr);
  if (persistent) {
    // The last row's barrier also keeps every block until the others'
    // last reads of its totals.
    ClusterBarrierOp::create(b, loc);
  } else if (clusterReads && !overwrites) {
    ClusterWaitOp::create(b, loc);
  }
  if (columnPartials > 0)
    finishColumnPartials(b, loc, group, launch, columnLoop, st, workspaces,
                         numChunks, vec, blockId, rowSlot, rowsPerBlock,
                         prefetchYields, target);
}
