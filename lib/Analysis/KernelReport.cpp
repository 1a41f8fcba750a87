//===- KernelReport.cpp - per-kernel traffic, efficiency and roofline -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements the kernel report declared in KernelReport.h.
//
//===----------------------------------------------------------------------===//

#include "memopt/Analysis/KernelReport.h"
#include "memopt/Analysis/AccessPattern.h"
#include "memopt/Analysis/Traffic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::memopt;

static bool constantDims(gpu::KernelDim3 d, std::array<int64_t, 3> &out) {
  Value vals[3] = {d.x, d.y, d.z};
  for (int i = 0; i < 3; ++i) {
    std::optional<int64_t> c = getConstantIntValue(vals[i]);
    if (!c)
      return false;
    out[i] = *c;
  }
  return true;
}

/// Executions of `op` per thread: the product of the static trip counts of
/// the scf.for loops between it and `kernel`; -1 if one is dynamic.
static int64_t tripsPerThread(Operation *op, Operation *kernel) {
  int64_t trips = 1;
  for (Operation *p = op->getParentOp(); p && p != kernel;
       p = p->getParentOp()) {
    auto f = dyn_cast<scf::ForOp>(p);
    if (!f)
      continue;
    std::optional<APInt> n = f.getStaticTripCount();
    if (!n)
      return -1;
    trips *= n->getSExtValue();
  }
  return trips;
}

/// Operations one execution of `op` performs (0 for what is not counted).
static int64_t opsOf(Operation *op) {
  if (op->getNumResults() != 1 || isa<arith::ConstantOp>(op))
    return 0;
  if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return 0;
  if (isa<CastOpInterface>(op) || isa<arith::SelectOp>(op))
    return 0;
  Type t = op->getResult(0).getType();
  if (auto vt = dyn_cast<VectorType>(t))
    return vt.getElementType().isIndex() ? 0 : vt.getNumElements();
  return t.isIndex() || t.isInteger(1) ? 0 : 1;
}

KernelReport mlir::memopt::analyzeKernel(Operation *kernel) {
  KernelReport r;
  Region *body = nullptr;
  bool haveGrid = false, haveBlock = false;
  if (auto launch = dyn_cast<gpu::LaunchOp>(kernel)) {
    body = &launch.getBody();
    haveGrid = constantDims(launch.getGridSizeOperandValues(), r.grid);
    haveBlock = constantDims(launch.getBlockSizeOperandValues(), r.block);
    if (auto f = launch->getParentOfType<FunctionOpInterface>())
      r.name = f.getName().str() + " (gpu.launch)";
  } else if (auto func = dyn_cast<gpu::GPUFuncOp>(kernel)) {
    body = &func.getBody();
    r.name = func.getName().str();
    auto known = [](std::optional<ArrayRef<int32_t>> k,
                    std::array<int64_t, 3> &out) {
      if (!k || k->size() != 3)
        return false;
      for (int i = 0; i < 3; ++i)
        out[i] = (*k)[i];
      return true;
    };
    haveGrid = known(func.getKnownGridSize(), r.grid);
    haveBlock = known(func.getKnownBlockSize(), r.block);
    if (!haveGrid || !haveBlock) {
      // The one launch with constant sizes.
      auto module = func->getParentOfType<gpu::GPUModuleOp>();
      Operation *top = module ? module->getParentOp() : nullptr;
      int found = 0;
      std::array<int64_t, 3> grid{}, block{};
      bool g = false, b = false;
      if (top && module)
        top->walk([&](gpu::LaunchFuncOp lf) {
          if (lf.getKernelModuleName() != module.getNameAttr() ||
              lf.getKernelName() != func.getNameAttr())
            return;
          ++found;
          g = constantDims(lf.getGridSizeOperandValues(), grid);
          b = constantDims(lf.getBlockSizeOperandValues(), block);
        });
      if (found == 1) {
        if (!haveGrid && g) {
          r.grid = grid;
          haveGrid = true;
        }
        if (!haveBlock && b) {
          r.block = block;
          haveBlock = true;
        }
      }
    }
  } else {
    return r;
  }
  if (!haveGrid)
    r.grid = {};
  if (!haveBlock)
    r.block = {};
  KernelTraffic t = analyzeKernelTraffic(*body);
  r.bytesRead = t.bytesRead;
  r.bytesWritten = t.bytesWritten;

  // Without sizes, counts stay unknown but the sector efficiency (a ratio)
  // is still weighted by trip counts; the block size alone gives the
  // per-block figures.
  int64_t blocks = haveGrid ? r.grid[0] * r.grid[1] * r.grid[2] : -1;
  int64_t blockThreads =
      haveBlock ? r.block[0] * r.block[1] * r.block[2] : -1;
  int64_t warpsPerBlock =
      haveBlock ? llvm::divideCeil(blockThreads, kLanes) : 1;
  int64_t ops = 0, conflictsLd = 0, conflictsSt = 0;
  int64_t warpAccessesLd = 0, warpAccessesSt = 0;
  double useful = 0, fetched = 0;
  bool effKnown = true, opsKnown = haveBlock, banksKnown = haveBlock;
  body->walk([&](Operation *op) {
    if (int64_t n = opsOf(op)) {
      int64_t trips = tripsPerThread(op, kernel);
      if (trips < 0)
        opsKnown = false;
      else if (opsKnown)
        ops += n * trips * blockThreads;
    }
    if (!isModelledAccess(op))
      return;
    std::string why;
    FailureOr<WarpAccess> a = analyzeWarpAccess(op, why);
    if (failed(a)) {
      ++r.unknownAccesses;
      std::optional<AccessParts> parts = getAccessParts(op);
      if (isOnChipMemory(cast<MemRefType>(parts->memref.getType())))
        banksKnown = false;
      else
        effKnown = false;
      return;
    }
    int64_t trips = tripsPerThread(op, kernel);
    if (a->isShared) {
      FailureOr<BankUse> u = getBlockBankUse(*a, warpsPerBlock, why);
      if (failed(u)) {
        banksKnown = false;
        return;
      }
      int64_t perBlock = u->wavefronts - u->phases;
      if (trips < 0) {
        banksKnown = false;
      } else if (banksKnown) {
        (a->isWrite ? conflictsSt : conflictsLd) += perBlock * trips;
        (a->isWrite ? warpAccessesSt : warpAccessesLd) +=
            warpsPerBlock * trips;
      }
      return;
    }
    if (trips < 0) {
      effKnown = false;
      return;
    }
    SectorUse s = getSectorUse(*a);
    useful += double(s.usefulBytes) * double(trips);
    fetched += double(s.sectors * 32) * double(trips);
  });
  if (opsKnown) {
    r.opsPerBlock = ops;
    if (haveGrid)
      r.ops = ops * blocks;
  }
  if (banksKnown) {
    r.bankConflictsLoadPerBlock = conflictsLd;
    r.bankConflictsStorePerBlock = conflictsSt;
    if (warpAccessesLd > 0)
      r.bankConflictsPerWarpLoad = double(conflictsLd) / double(warpAccessesLd);
    if (warpAccessesSt > 0)
      r.bankConflictsPerWarpStore =
          double(conflictsSt) / double(warpAccessesSt);
    if (haveGrid) {
      r.bankConflictsLoad = conflictsLd * blocks;
      r.bankConflictsStore = conflictsSt * blocks;
    }
  }
  if (effKnown)
    r.sectorEfficiency = fetched > 0 ? useful / fetched : 1.0;
  return r;
}
