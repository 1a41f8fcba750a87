//===- ElementwiseStrategy.cpp - vectorized elementwise kernels -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The elementwise family (#memopt.elementwise): a group without reductions
// becomes one thread per chunk of `vector` contiguous elements, with 16-byte
// loads and stores where the shapes prove alignment. Rows whose length is
// not a multiple of the vector keep wide accesses: the whole space as one
// flat array when every buffer is row-shaped, else row chunks shifted to
// the buffers' alignment with masked partial chunks.
//
//===----------------------------------------------------------------------===//

#include "EmitUtils.h"
#include "Strategies.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

/// Whether every op of `group` is elementwise over the row space with every
/// buffer of the row space's shape, read and written at the same position,
/// so that the space is one flat array.
static bool canUseFlat(const Group &group) {
  SmallVector<int64_t> rowShape(group.outer.begin(), group.outer.end());
  rowShape.push_back(group.inner);
  for (const GroupOp &g : group.ops) {
    if (g.role != RowRole::Vector)
      return false;
    if (!g.op.getBody()->getOps<linalg::IndexOp>().empty())
      return false;
    for (OpOperand &operand : g.op->getOpOperands()) {
      auto mt = dyn_cast<MemRefType>(operand.get().getType());
      if (!mt)
        continue;
      if (!mt.getLayout().isIdentity() || !mt.hasStaticShape() ||
          mt.getShape() != ArrayRef<int64_t>(rowShape) ||
          !g.op.getMatchingIndexingMap(&operand).isIdentity())
        return false;
    }
  }
  return true;
}

/// Why threads of several blocks would update one per-row value in place
/// (a row-scalar buffer read from memory and rewritten: no ordering between
/// them exists), or the empty string.
static std::string getInPlaceRowUpdate(const Group &group) {
  for (const GroupOp &g : group.ops)
    for (OpOperand &out : g.op.getDpsInitsMutable()) {
      Value root = getRootBuffer(out.get());
      if (group.inner >= 0 && !group.writtenIsVector.lookup(root) &&
          group.readExternal.contains(root))
        return "a per-row value is updated in place by threads of several "
               "blocks";
    }
  return "";
}

/// Bytes one chunk of `vec` lanes loads from memory: each distinct
/// (value, map) read once (as the emitter's load cache does), a per-row
/// value as one element, a contiguous read as `vec` elements, a windowed
/// read as its window. Buffers the group wrote before (held in registers)
/// and private ones cost nothing; an output whose old value is used (an
/// in-place update) is read too.
static int64_t getChunkLoadBytes(const Group &group,
                                 const KernelTargetInfo &target, unsigned vec,
                                 bool windowed) {
  int64_t bytes = 0;
  DenseSet<std::pair<Value, AffineMap>> seen;
  DenseSet<Value> writtenBefore;
  for (const GroupOp &g : group.ops) {
    unsigned inner = g.op.getNumLoops() - 1;
    Block *body = g.op.getBody();
    for (OpOperand &operand : g.op->getOpOperands()) {
      auto mt = dyn_cast<MemRefType>(operand.get().getType());
      if (!mt)
        continue;
      bool isInit = g.op.isDpsInit(&operand);
      if (isInit && body->getArgument(operand.getOperandNumber()).use_empty())
        continue;
      Value root = getRootBuffer(operand.get());
      if (isGroupPrivate(root, group) || writtenBefore.contains(root))
        continue;
      AffineMap map = g.op.getMatchingIndexingMap(&operand);
      if (!seen.insert({operand.get(), map}).second)
        continue;
      int64_t eb = getElementBytes(mt.getElementType());
      if (g.role == RowRole::Scalar || !map.isFunctionOfDim(inner)) {
        bytes += eb;
        continue;
      }
      auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
      if (windowed && !(last && last.getPosition() == inner)) {
        if (std::optional<LaneWindow> w = getLaneWindow(
                operand.get(), map, inner, vec, target.vectorBytes / eb)) {
          bytes += w->width * eb;
          continue;
        }
      }
      bytes += vec * eb;
    }
    for (OpOperand &init : g.op.getDpsInitsMutable())
      writtenBefore.insert(getRootBuffer(init.get()));
  }
  return bytes;
}

/// The chunks of `vec` lanes a layout splits the group into: one per vector
/// of the flat array, else one per vector of each row (shifted rows: every
/// aligned vector a row touches; a group without a row: one per row).
static int64_t getLayoutChunks(const Group &group, ElementwiseLayout layout,
                               int64_t vec) {
  if (layout == ElementwiseLayout::Flat)
    return llvm::divideCeil(group.numRows() * group.inner, vec);
  if (group.inner < 0)
    return group.numRows();
  return group.numRows() *
         getChunksPerRow(group.inner, vec,
                         layout == ElementwiseLayout::ShiftedRows);
}

/// Chunks per thread: the fewest powers of two (at most 8) whose loads
/// reach the target's `elementwiseLoadBytes`, while the grid keeps at least
/// the threads every multiprocessor holds at once (2048 on sm_80..sm_90:
/// twice the largest block), so that fewer threads do not idle the chip.
static int64_t selectChunks(const Group &group, const KernelTargetInfo &target,
                            int64_t totalChunks, unsigned vec, bool windowed,
                            bool evenOnly, int64_t threads) {
  int64_t loadBytes = getChunkLoadBytes(group, target, vec, windowed);
  if (loadBytes <= 0 || target.elementwiseLoadBytes == 0)
    return 1;
  int64_t minThreads =
      (int64_t)target.multiprocessors * 2 * target.maxThreadsPerBlock;
  int64_t chunks = 1;
  while (chunks < 8 && chunks * loadBytes < target.elementwiseLoadBytes &&
         totalChunks / (chunks * 2) >= minThreads &&
         (!evenOnly || totalChunks % (threads * chunks * 2) == 0))
    chunks *= 2;
  return chunks;
}

FailureOr<ElementwiseStrategyAttr> kf::selectElementwiseStrategy(
    const Group &group, const KernelTargetInfo &target, std::string &why) {
  why = getInPlaceRowUpdate(group);
  if (!why.empty())
    return failure();
  MLIRContext *ctx = group.ops.front().op.getContext();
  int64_t threads = target.blockSize;
  if (group.inner < 0)
    return ElementwiseStrategyAttr::get(ctx, ElementwiseLayout::Rows, 1,
                                        threads, false, DenseI64ArrayAttr(),
                                        1);
  unsigned vec = chooseVectorWidth(group, target, /*rowsMayBeMisaligned=*/false,
                                   /*windows=*/true);
  unsigned wide =
      chooseVectorWidth(group, target, /*rowsMayBeMisaligned=*/true);
  // A problem that one block of vectors would hold (a few thousand
  // elements) is bound by latency, not bandwidth: one element per thread
  // spreads its math over more threads and multiprocessors (a bias + GELU
  // of 5x333 f16 took 2.3 us with 8 lanes per thread, in one block of 215
  // threads or in 7 of 32, against 1.0 us for the naive kernel's 1665
  // threads; run 18).
  int64_t lanes = std::max<int64_t>(vec, wide);
  if (lanes > 1 &&
      group.numRows() * (int64_t)llvm::divideCeil(group.inner, lanes) <
          threads)
    return ElementwiseStrategyAttr::get(ctx, ElementwiseLayout::Rows, 1,
                                        threads, false, DenseI64ArrayAttr(),
                                        1);
  bool evenOnly = overwritesItsInput(group);
  if (wide > vec) {
    if (canUseFlat(group)) {
      int64_t total = group.numRows() * group.inner;
      int64_t chunks =
          total % wide != 0
              ? 1
              : selectChunks(group, target,
                             getLayoutChunks(group, ElementwiseLayout::Flat,
                                             wide),
                             wide,
                             /*windowed=*/false, evenOnly, threads);
      return ElementwiseStrategyAttr::get(ctx, ElementwiseLayout::Flat, wide,
                                          threads, false, DenseI64ArrayAttr(),
                                          chunks);
    }
    // Otherwise (row-scalar or broadcast operands) the rows' chunks are
    // shifted to the buffers' alignment as in row kernels.
    if (group.inner > (int64_t)wide)
      return ElementwiseStrategyAttr::get(ctx, ElementwiseLayout::ShiftedRows,
                                          wide, threads, false,
                                          selectBlockOrder(group, target), 1);
  }
  bool windowed = vec > 1 && hasWindowAccesses(group);
  int64_t chunks =
      vec > 1 ? selectChunks(group, target,
                             getLayoutChunks(group, ElementwiseLayout::Rows,
                                             vec),
                             vec, windowed, evenOnly, threads)
              : 1;
  return ElementwiseStrategyAttr::get(ctx, ElementwiseLayout::Rows, vec,
                                      threads, windowed,
                                      selectBlockOrder(group, target), chunks);
}

LogicalResult kf::checkElementwiseStrategy(const Group &group,
                                           ElementwiseStrategyAttr s,
                                           const KernelTargetInfo &target,
                                           Operation *anchor) {
  auto fail = [&] { return emitCannotHonour(anchor, s); };
  if (group.hasReduce())
    return fail() << "the group has a reduction";
  std::string why = getInPlaceRowUpdate(group);
  if (!why.empty())
    return fail() << why;
  int64_t vec = s.getVector();
  if (s.getWindowed()) {
    // Windowed reads (records' fields, per-record tables): each access by
    // its own width.
    if (s.getLayout() != ElementwiseLayout::Rows)
      return fail() << "windowed reads need the rows layout";
    if (vec < 2)
      return fail() << "windowed reads need a vector of several lanes";
    if (!llvm::isPowerOf2_64(vec) ||
        !fitsWindowedAccesses(group, target, vec, why))
      return fail() << (why.empty() ? "vector must be a power of two" : why);
  } else if (!isVectorAllowed(vec, getWidestElementBytes(group), target))
    return fail() << "vector must be a power of two of at most "
                  << target.vectorBytes << " bytes of the widest element";
  if (s.getThreads() < 1 || s.getThreads() > (int64_t)target.maxThreadsPerBlock)
    return fail() << "threads must be between 1 and "
                  << target.maxThreadsPerBlock;
  switch (s.getLayout()) {
  case ElementwiseLayout::Rows:
    if (group.inner < 0 ? vec != 1 : group.inner % vec != 0)
      return fail() << "rows of " << group.inner
                    << " elements are not a multiple of the vector";
    break;
  case ElementwiseLayout::ShiftedRows:
    if (group.inner < 1)
      return fail() << "the group has no row to shift";
    break;
  case ElementwiseLayout::Flat:
    if (group.inner < 1 || !canUseFlat(group))
      return fail() << "not every buffer is row-shaped and read at the "
                       "position written";
    if (s.getBlockOrder())
      return fail() << "block_order needs a rows or shifted_rows layout";
    break;
  }
  int64_t chunks = s.getChunks();
  if (chunks < 1 || chunks > 64)
    return fail() << "chunks must be between 1 and 64";
  if (chunks > 1) {
    if (s.getLayout() == ElementwiseLayout::ShiftedRows)
      return fail() << "several chunks per thread need the rows or flat "
                       "layout";
    if (s.getLayout() == ElementwiseLayout::Flat &&
        (group.numRows() * group.inner) % vec != 0)
      return fail() << "several chunks per thread in the flat layout need "
                       "its elements to be a multiple of the vector";
    int64_t total = getLayoutChunks(group, s.getLayout(), vec);
    if (overwritesItsInput(group) && total % (s.getThreads() * chunks) != 0)
      return fail() << "the group updates a buffer in place, so its "
                    << total << " chunks must be a multiple of threads x "
                                "chunks (no chunk may be repeated)";
  }
  return checkBlockOrder(group, s, s.getBlockOrder(), anchor);
}

/// A launch of `chunks` chunks per thread over `total` chunks: blocks of
/// `threads` covering `threads * chunks` consecutive chunks each. Returns
/// each of a thread's chunk indices, the j-th in the block's j-th slab of
/// `threads`; past the end (the last block) the last chunk again.
static SmallVector<Value> createChunkedLaunch(RewriterBase &b, Location loc,
                                              int64_t total, int64_t threads,
                                              int64_t chunks,
                                              gpu::LaunchOp &launch) {
  int64_t grid = llvm::divideCeil(total, threads * chunks);
  Value linear;
  launch = createLinearLaunch(b, loc, grid * threads, threads, linear);
  Value base = arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                                     cIdx(b, loc, threads * chunks));
  base = arith::AddIOp::create(b, loc, base, launch.getThreadIds().x);
  SmallVector<Value> ids;
  for (int64_t j = 0; j < chunks; ++j) {
    Value id = j == 0 ? base
                      : arith::AddIOp::create(b, loc, base,
                                              cIdx(b, loc, j * threads))
                            .getResult();
    if (grid * threads * chunks > total)
      id = arith::MinUIOp::create(b, loc, id, cIdx(b, loc, total - 1));
    ids.push_back(id);
  }
  return ids;
}

/// Emits the group once per state, op by op across the states (every
/// chunk's loads come before any chunk's stores, so they are in flight
/// together), then each state's stores.
static void emitInterleaved(RewriterBase &b, Group &group,
                            MutableArrayRef<EmitState> states,
                            ArrayRef<Value> leaders) {
  for (const GroupOp &g : group.ops)
    for (EmitState &st : states) {
      Value partial;
      emitOp(b, st, g, 1, partial);
    }
  for (auto [st, leader] : llvm::zip_equal(states, leaders))
    storeResults(b, st, group, 1, leader);
}

static void emitFlatElementwiseKernel(RewriterBase &b, Group &group,
                                      int64_t threads, int64_t rows,
                                      unsigned vec, int64_t perThread) {
  SmallVector<int64_t> rowShape(group.outer.begin(), group.outer.end());
  rowShape.push_back(group.inner);
  Location loc = group.ops.front().op.getLoc();
  int64_t total = rows * group.inner;
  int64_t chunks = getLayoutChunks(group, ElementwiseLayout::Flat, vec);
  b.setInsertionPoint(group.ops.back().op);
  Block *entry = nullptr;
  auto makeState = [&](Value k0, bool partial) {
    EmitState st(loc);
    st.vec = vec;
    st.shifted = true;
    st.forceLanes = partial;
    st.kernelEntry = entry;
    st.rowShape = rowShape;
    st.outerIds.assign(group.outer.size(), cIdx(b, loc, 0));
    st.chunkBase.push_back(k0);
    st.chunkValid.push_back(Value());
    st.chunkFlat.push_back(k0);
    Value yes = arith::ConstantIntOp::create(b, loc, 1, 1);
    st.chunkFull.push_back(
        partial ? arith::ConstantIntOp::create(b, loc, 0, 1).getResult() : yes);
    for (unsigned l = 0; l < vec; ++l)
      st.laneValid.push_back(
          partial ? arith::CmpIOp::create(
                        b, loc, arith::CmpIPredicate::ult,
                        arith::AddIOp::create(b, loc, k0, cIdx(b, loc, l)),
                        cIdx(b, loc, total))
                        .getResult()
                  : yes);
    return st;
  };
  if (perThread > 1) {
    // (The strategy's check: the elements are a multiple of the vector.)
    gpu::LaunchOp launch;
    SmallVector<Value> ids =
        createChunkedLaunch(b, loc, chunks, threads, perThread, launch);
    entry = &launch.getBody().front();
    SmallVector<EmitState, 0> states;
    for (Value id : ids)
      states.push_back(makeState(
          arith::MulIOp::create(b, loc, id, cIdx(b, loc, vec)), false));
    emitInterleaved(b, group, states,
                    SmallVector<Value>(states.size(), Value()));
    return;
  }
  Value linear;
  gpu::LaunchOp launch = createLinearLaunch(b, loc, chunks, threads, linear);
  entry = &launch.getBody().front();
  Value k0 = arith::MulIOp::create(b, loc, linear, cIdx(b, loc, vec));
  auto emitChunk = [&](bool partial) {
    EmitState st = makeState(k0, partial);
    for (const GroupOp &g : group.ops) {
      Value partialValue;
      emitOp(b, st, g, 1, partialValue);
    }
    storeResults(b, st, group, 1, Value());
  };
  if (total % vec == 0) {
    emitChunk(false);
    return;
  }
  Value full = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ule,
      arith::AddIOp::create(b, loc, k0, cIdx(b, loc, vec)),
      cIdx(b, loc, total));
  auto ifOp = scf::IfOp::create(b, loc, full, true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    emitChunk(false);
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    emitChunk(true);
  }
}

void kf::emitElementwiseKernel(RewriterBase &b, Group &group,
                               ElementwiseStrategyAttr s,
                               const KernelTargetInfo &target) {
  Location loc = group.ops.front().op.getLoc();
  bool scalarOnly = group.inner < 0;
  unsigned vec = s.getVector();
  int64_t rows = group.numRows();
  if (s.getLayout() == ElementwiseLayout::Flat)
    return emitFlatElementwiseKernel(b, group, s.getThreads(), rows, vec,
                                     s.getChunks());
  bool shifted = s.getLayout() == ElementwiseLayout::ShiftedRows;
  int64_t total = getLayoutChunks(group, s.getLayout(), vec);
  int64_t chunksPerRow = total / rows;
  b.setInsertionPoint(group.ops.back().op);
  // One chunk per thread (any layout) or `chunks` of them (the rows
  // layout, the strategy's check), each in its own row.
  gpu::LaunchOp launch;
  SmallVector<Value> ids;
  if (s.getChunks() > 1) {
    ids = createChunkedLaunch(b, loc, total, s.getThreads(), s.getChunks(),
                              launch);
  } else {
    ids.emplace_back();
    launch = createLinearLaunch(b, loc, total, s.getThreads(), ids.back());
  }
  SmallVector<EmitState, 0> states;
  // Row-scalar results are stored by the thread holding the row's first
  // chunk.
  SmallVector<Value> leaders;
  for (Value id : ids) {
    EmitState &st = states.emplace_back(loc);
    st.vec = vec;
    st.windowBytes = s.getWindowed() ? target.vectorBytes : 0;
    Value chunk = id, row = id;
    if (!scalarOnly) {
      chunk = arith::RemUIOp::create(b, loc, id, cIdx(b, loc, chunksPerRow));
      row = arith::DivUIOp::create(b, loc, id, cIdx(b, loc, chunksPerRow));
    }
    row = getOrderedRow(b, loc, row, group.outer, s.getBlockOrder());
    st.outerIds = delinearize(b, loc, row, group.outer);
    if (shifted) {
      st.kernelEntry = &launch.getBody().front();
      st.rowShape.assign(group.outer.begin(), group.outer.end());
      st.rowShape.push_back(group.inner);
      setupShiftedChunks(b, st, row, {chunk}, group.inner, rows,
                         /*mayPassRow=*/true);
    } else {
      st.chunkBase.push_back(
          arith::MulIOp::create(b, loc, chunk, cIdx(b, loc, vec)));
      st.chunkValid.push_back(Value());
    }
    leaders.push_back(scalarOnly ? Value()
                                 : arith::CmpIOp::create(
                                       b, loc, arith::CmpIPredicate::eq, chunk,
                                       cIdx(b, loc, 0))
                                       .getResult());
  }
  if (states.size() > 1) {
    emitInterleaved(b, group, states, leaders);
    return;
  }
  EmitState &st = states.front();
  Value leader = leaders.front();
  auto emitGroup = [&](EmitState &s) {
    for (const GroupOp &g : group.ops) {
      Value partial;
      emitOp(b, s, g, 1, partial);
    }
    storeResults(b, s, group, 1, leader);
  };
  if (!shifted || !st.chunkInBuffer[0]) {
    emitGroup(st);
    return;
  }
  // The chunk whose aligned vector would reach past the buffers' end runs
  // a lane-by-lane copy of the group; every other chunk the vector one.
  // (Two whole copies rather than a branch around each load: LLVM would
  // merge per-load branches back into scalar loads.)
  Value inBuffer = st.chunkInBuffer[0];
  st.chunkInBuffer[0] = Value();
  auto ifOp = scf::IfOp::create(b, loc, inBuffer, true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  EmitState vectorState = st;
  emitGroup(vectorState);
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  EmitState laneState = st;
  laneState.forceLanes = true;
  emitGroup(laneState);
}
