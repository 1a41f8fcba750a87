//===- TileTransposeStrategy.cpp - transposes through a shared tile -*- C++
//-*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The tiled transpose family (#memopt.tile_transpose): an all-parallel op
// whose input is contiguous along another loop than its output is staged
// through a shared-memory tile, so that both the read and the write are
// coalesced; elementwise work before it runs while the tile is loaded and
// work after it while the tile is stored. The tile is read by column:
// memopt-bank-fix pads or swizzles it.
//
//===----------------------------------------------------------------------===//

#include "EmitUtils.h"
#include "Strategies.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

/// Tiles of 32 x 32 elements, loaded and stored by blocks of 32 x 8
/// threads (four rows of the tile per thread).
static constexpr int64_t kDefaultTile = 32;
static constexpr int64_t kDefaultTileRows = 8;

TileTransposeStrategyAttr
kf::selectTileTransposeStrategy(const TileFusion &fusion, unsigned transpose,
                                const KernelTargetInfo &target) {
  linalg::GenericOp op = fusion.op;
  return TileTransposeStrategyAttr::get(op.getContext(), transpose,
                                        kDefaultTile, kDefaultTileRows);
}

LogicalResult kf::checkTileTransposeStrategy(const TileFusion &fusion,
                                             TileTransposeStrategyAttr s,
                                             const KernelTargetInfo &target,
                                             Operation *anchor) {
  int64_t tile = s.getTile(), rows = s.getTileRows();
  if (tile < 1 || rows < 1 || tile % rows != 0 ||
      tile * rows > (int64_t)target.maxThreadsPerBlock)
    return emitCannotHonour(anchor, s)
           << "tile_rows must divide tile and tile x tile_rows "
           << "threads fit in a block of at most " << target.maxThreadsPerBlock;
  int64_t bytes =
      tile * tile *
      getElementBytes(cast<MemRefType>(fusion.match.transposed->get().getType())
                          .getElementType());
  if (bytes > (int64_t)target.sharedMemoryBytes)
    return emitCannotHonour(anchor, s)
           << "a tile of " << bytes << " bytes is over the "
           << target.sharedMemoryBytes << " bytes of shared memory per block";
  return success();
}

/// Emits the tiled kernel of `fusion` at its last op; the caller erases the
/// ops and the private buffers.
void kf::emitTileTransposeKernel(RewriterBase &b, const TileFusion &fusion,
                                 TileTransposeStrategyAttr s,
                                 const DenseSet<Value> &privates) {
  const int64_t tileSize = s.getTile(), tileRows = s.getTileRows();
  linalg::GenericOp op = fusion.op;
  OpOperand *transposed = fusion.match.transposed;
  unsigned a = fusion.match.a;
  unsigned n = op.getNumLoops();
  Location loc = op.getLoc();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  Type elt = cast<MemRefType>(transposed->get().getType()).getElementType();
  int64_t tilesB = llvm::divideCeil(ranges[n - 1], tileSize);
  int64_t tilesA = llvm::divideCeil(ranges[a], tileSize);
  SmallVector<int64_t> others;
  SmallVector<unsigned> otherDims;
  for (unsigned d = 0; d < n; ++d)
    if (d != a && d != n - 1) {
      others.push_back(ranges[d]);
      otherDims.push_back(d);
    }
  int64_t numOthers = 1;
  for (int64_t o : others)
    numOthers *= o;
  // The tile is read by column: 32-way bank conflicts as formed here,
  // repaired (padding or swizzle) by memopt-bank-fix.
  auto tileType = MemRefType::get(
      {tileSize, tileSize}, elt, AffineMap(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  // At the last op: every buffer the epilogue uses is defined there, and
  // only allocations, views and constants lie between the fused ops.
  b.setInsertionPoint(fusion.epilogue.empty() ? op : fusion.epilogue.back());
  gpu::LaunchOp launch =
      createLaunch(b, loc, {tilesB * tilesA * numOthers}, {tileSize, tileRows},
                   TypeRange{tileType});
  Value tile = launch.getWorkgroupAttributions().front();
  Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;
  SmallVector<Value> blk =
      delinearize(b, loc, launch.getBlockIds().x, {numOthers, tilesA, tilesB});
  SmallVector<Value> otherIds = delinearize(b, loc, blk[0], others);
  Value baseA = arith::MulIOp::create(b, loc, blk[1], cIdx(b, loc, tileSize));
  Value baseB = arith::MulIOp::create(b, loc, blk[2], cIdx(b, loc, tileSize));
  auto makeIvs = [&](Value ia, Value ib) {
    SmallVector<Value> ivs(n);
    for (auto [k, d] : llvm::enumerate(otherDims))
      ivs[d] = otherIds[k];
    ivs[a] = ia;
    ivs[n - 1] = ib;
    return ivs;
  };
  auto inBounds = [&](Value ia, Value ib) {
    Value okA = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, ia,
                                      cIdx(b, loc, ranges[a]));
    Value okB = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, ib,
                                      cIdx(b, loc, ranges[n - 1]));
    return arith::AndIOp::create(b, loc, okA, okB).getResult();
  };
  bool exactA = ranges[a] % tileSize == 0,
       exactB = ranges[n - 1] % tileSize == 0;
  // Load phase: consecutive threads walk loop `a`, the input's contiguous
  // dimension; the prologue runs at the input's position.
  for (int64_t i = 0; i < tileSize; i += tileRows) {
    OpBuilder::InsertionGuard guard(b);
    Value lb = arith::AddIOp::create(b, loc, ty, cIdx(b, loc, i));
    Value ia = arith::AddIOp::create(b, loc, baseA, tx);
    Value ib = arith::AddIOp::create(b, loc, baseB, lb);
    if (!exactA || !exactB) {
      auto ifOp = scf::IfOp::create(b, loc, inBounds(ia, ib), false);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    }
    SmallVector<Value> idx = expandIndices(
        b, loc, op.getMatchingIndexingMap(transposed), makeIvs(ia, ib));
    Value x;
    if (fusion.prologue.empty()) {
      x = memref::LoadOp::create(b, loc, transposed->get(), idx);
    } else {
      DenseMap<Value, Value> held;
      evalElementwiseChain(b, loc, fusion.prologue, idx, held, privates);
      x = held.lookup(getRootBuffer(transposed->get()));
    }
    memref::StoreOp::create(b, loc, x, tile, ValueRange{lb, tx});
  }
  gpu::BarrierOp::create(b, loc);
  // Store phase: consecutive threads walk the innermost loop, the output's
  // contiguous dimension, and read the tile by column; the epilogue runs at
  // the output's position.
  for (int64_t i = 0; i < tileSize; i += tileRows) {
    OpBuilder::InsertionGuard guard(b);
    Value la = arith::AddIOp::create(b, loc, ty, cIdx(b, loc, i));
    Value ia = arith::AddIOp::create(b, loc, baseA, la);
    Value ib = arith::AddIOp::create(b, loc, baseB, tx);
    if (!exactA || !exactB) {
      auto ifOp = scf::IfOp::create(b, loc, inBounds(ia, ib), false);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    }
    SmallVector<Value> ivs = makeIvs(ia, ib);
    Value staged = memref::LoadOp::create(b, loc, tile, ValueRange{tx, la});
    SmallVector<linalg::GenericOp> chain{op};
    llvm::append_range(chain, fusion.epilogue);
    DenseMap<Value, Value> held;
    evalElementwiseChain(b, loc, chain, ivs, held, privates, transposed,
                         staged);
  }
}
