//===- KernelUtils.cpp - shared helpers of kernel formation -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements the helpers declared in KernelUtils.h.
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"
#include "memopt/Analysis/Traffic.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

gpu::LaunchOp kf::createLaunch(OpBuilder &b, Location loc,
                                   ArrayRef<int64_t> grid,
                                   ArrayRef<int64_t> block,
                                   TypeRange workgroupAttributions,
                                   int64_t clusterX) {
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto at = [](ArrayRef<int64_t> a, unsigned i) -> int64_t {
    return i < a.size() ? a[i] : 1;
  };
  auto launch = gpu::LaunchOp::create(
      b, loc, cst(at(grid, 0)), cst(at(grid, 1)), cst(at(grid, 2)),
      cst(at(block, 0)), cst(at(block, 1)), cst(at(block, 2)),
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, workgroupAttributions,
      /*privateAttributions=*/{},
      clusterX > 1 ? cst(clusterX) : Value(), clusterX > 1 ? cst(1) : Value(),
      clusterX > 1 ? cst(1) : Value());
  Block &body = launch.getBody().front();
  // Upstream's builder adds the region values of a plain launch only (the
  // parser adds the cluster ids and sizes): add those six after them.
  if (clusterX > 1)
    for (unsigned i = 0; i < 6; ++i)
      body.insertArgument(gpu::LaunchOp::kNumConfigRegionAttributes + i,
                          b.getIndexType(), loc);
  b.setInsertionPointToEnd(&body);
  auto term = gpu::TerminatorOp::create(b, loc);
  b.setInsertionPoint(term);
  return launch;
}

SmallVector<Value> kf::expandIndices(OpBuilder &b, Location loc,
                                         AffineMap map, ValueRange ivs) {
  SmallVector<Value> result;
  for (AffineExpr e : map.getResults()) {
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      result.push_back(ivs[d.getPosition()]);
      continue;
    }
    if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      result.push_back(arith::ConstantIndexOp::create(b, loc, c.getValue()));
      continue;
    }
    result.push_back(affine::expandAffineExpr(b, loc, e, ivs, {}));
  }
  return result;
}

SmallVector<Value> kf::delinearize(OpBuilder &b, Location loc,
                                       Value linear, ArrayRef<int64_t> sizes) {
  SmallVector<Value> ids(sizes.size());
  Value rest = linear;
  for (int i = static_cast<int>(sizes.size()) - 1; i >= 0; --i) {
    if (sizes[i] == 1) {
      ids[i] = arith::ConstantIndexOp::create(b, loc, 0);
      continue;
    }
    Value sz = arith::ConstantIndexOp::create(b, loc, sizes[i]);
    ids[i] = i == 0 ? rest : arith::RemUIOp::create(b, loc, rest, sz);
    if (i > 0)
      rest = arith::DivUIOp::create(b, loc, rest, sz);
  }
  return ids;
}

SmallVector<Value> kf::cloneBody(OpBuilder &b, linalg::GenericOp op,
                                     ValueRange args, ValueRange ivs) {
  Block *body = op.getBody();
  IRMapping map;
  map.map(body->getArguments(), args);
  SmallVector<Value> results;
  for (Operation &inner : body->getOperations()) {
    if (auto yield = dyn_cast<linalg::YieldOp>(inner)) {
      for (Value v : yield.getValues())
        results.push_back(map.lookupOrDefault(v));
      break;
    }
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      map.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    b.clone(inner, map);
  }
  return results;
}

Value kf::getRootBuffer(Value v) { return getViewRoot(v); }

bool kf::touchesWholeBuffersOnly(linalg::GenericOp op) {
  for (Value v : op->getOperands()) {
    if (!isa<MemRefType>(v.getType()))
      continue;
    Value root = getRootBuffer(v);
    if (!isa<BlockArgument>(root) && !root.getDefiningOp<memref::AllocOp>())
      return false;
  }
  bool capturesMemref = false;
  op.getBody()->walk([&](Operation *inner) {
    for (Value v : inner->getOperands())
      if (isa<MemRefType>(v.getType()))
        capturesMemref = true;
  });
  return !capturesMemref;
}

int64_t kf::getElementBytes(Type t) {
  unsigned bits = t.getIntOrFloatBitWidth();
  return bits < 8 ? 1 : bits / 8;
}

void mlir::memopt::applyTarget(KernelTargetInfo &info, TargetAttr target) {
  auto orTarget = [](unsigned &field, int64_t fact) {
    if (field == 0)
      field = fact;
  };
  orTarget(info.warpSize, target.getWarpSize());
  orTarget(info.maxThreadsPerBlock, target.getMaxThreadsPerBlock());
  orTarget(info.vectorBytes, target.getVectorBytes());
  orTarget(info.multiprocessors, target.getMultiprocessors());
  info.cacheLineBytes = target.getCacheLineBytes();
  info.l2Bytes = target.getL2Bytes();
  info.maxClusterSize =
      info.maxClusterSize == 0
          ? target.getMaxClusterSize()
          : std::min<int64_t>(info.maxClusterSize, target.getMaxClusterSize());
  info.portableClusterSize = target.getPortableClusterSize();
  info.registersPerMultiprocessor = target.getRegistersPerMultiprocessor();
  info.sharedMemoryBytes = target.getSharedMemoryPerBlock();
  info.sharedMemoryPerMultiprocessor =
      target.getSharedMemoryPerMultiprocessor();
  info.maxSharedMemoryPerBlock = target.getMaxSharedMemoryPerBlock();
}

KernelTargetInfo mlir::memopt::getTargetFacts(TargetAttr target) {
  KernelTargetInfo info;
  info.warpSize = info.maxThreadsPerBlock = info.vectorBytes = 0;
  info.multiprocessors = info.maxClusterSize = 0;
  applyTarget(info, target);
  return info;
}
