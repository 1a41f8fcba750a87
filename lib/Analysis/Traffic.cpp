//===- Traffic.cpp - static DRAM traffic model of kernels ---*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements the DRAM traffic model declared in Traffic.h.
//
//===----------------------------------------------------------------------===//

#include "memopt/Analysis/Traffic.h"
#include "memopt/Analysis/AccessPattern.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::memopt;


int64_t mlir::memopt::getStaticBytes(MemRefType type) {
  if (!type.hasStaticShape())
    return -1;
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  int64_t eltBytes = bits < 8 ? 1 : bits / 8;
  return type.getNumElements() * eltBytes;
}

bool mlir::memopt::isOnChipMemory(MemRefType type) {
  Attribute space = type.getMemorySpace();
  if (!space)
    return false;
  if (auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space))
    return gpuSpace.getValue() != gpu::AddressSpace::Global;
  if (auto intSpace = dyn_cast<IntegerAttr>(space))
    return intSpace.getInt() == 3 || intSpace.getInt() == 5;
  return false;
}

int64_t mlir::memopt::getRecordFieldBytes(int64_t records,
                                          int64_t recordElems,
                                          int64_t eltBytes,
                                          ArrayRef<int64_t> fields,
                                          int64_t accessBytes,
                                          int64_t sectorBytes) {
  int64_t recordBytes = recordElems * eltBytes;
  if (recordBytes % sectorBytes != 0 || recordBytes <= sectorBytes)
    return records * recordBytes;
  llvm::SmallSetVector<int64_t, 8> sectors;
  for (int64_t pos : fields) {
    sectors.insert(pos * eltBytes / sectorBytes);
    sectors.insert((pos * eltBytes + std::max(accessBytes, eltBytes) - 1) /
                   sectorBytes);
  }
  return records * static_cast<int64_t>(sectors.size()) * sectorBytes;
}

int64_t mlir::memopt::getDramBytesDuringKernel(int64_t bytesRead,
                                               int64_t bytesWritten,
                                               int64_t l2Bytes) {
  return bytesRead + (bytesWritten > l2Bytes ? bytesWritten : 0);
}

Value mlir::memopt::getViewRoot(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto e = dyn_cast<memref::ExpandShapeOp>(def)) {
      v = e.getSrc();
      continue;
    }
    if (auto c = dyn_cast<memref::CollapseShapeOp>(def)) {
      v = c.getSrc();
      continue;
    }
    if (auto c = dyn_cast<memref::CastOp>(def)) {
      v = c.getSource();
      continue;
    }
    // A permuted view (the interchanged loops of a normalization over a
    // non-innermost dim read their buffers through one).
    if (auto t = dyn_cast<memref::TransposeOp>(def)) {
      v = t.getIn();
      continue;
    }
    // A flat view of a whole buffer (offset 0, static sizes).
    if (auto r = dyn_cast<memref::ReinterpretCastOp>(def);
        r && r.getStaticOffsets().size() == 1 && r.getStaticOffsets()[0] == 0 &&
        r.getType().hasStaticShape() &&
        r.getType().getNumElements() == r.getSource().getType().getNumElements()) {
      v = r.getSource();
      continue;
    }
    break;
  }
  return v;
}

namespace {
/// Everything known about the accesses of one buffer.
struct BufferAccesses {
  bool read = false;
  bool written = false;
  /// True while every access uses a constant innermost index on the
  /// buffer's own (un-reshaped) type.
  bool constantInnermost = true;
  llvm::SmallSetVector<int64_t, 8> innerPositions;
  int64_t accessBytes = 0;
};
} // namespace

static void recordAccess(BufferAccesses &acc, Value memref,
                         ValueRange indices, int64_t accessBytes,
                         bool isWrite) {
  (isWrite ? acc.written : acc.read) = true;
  acc.accessBytes = std::max(acc.accessBytes, accessBytes);
  if (getViewRoot(memref) != memref || indices.empty()) {
    acc.constantInnermost = false;
    return;
  }
  APInt c;
  if (!matchPattern(indices.back(), m_ConstantInt(&c))) {
    acc.constantInnermost = false;
    return;
  }
  acc.innerPositions.insert(c.getSExtValue());
}

KernelTraffic mlir::memopt::analyzeKernelTraffic(Region &region,
                                                 bool *unknown) {
  llvm::MapVector<Value, BufferAccesses> accesses;
  auto visit = [&](Value memref, ValueRange indices, Type accessType,
                   bool isWrite) {
    auto type = dyn_cast<MemRefType>(memref.getType());
    if (!type || isOnChipMemory(type))
      return;
    Value root = getViewRoot(memref);
    int64_t bytes = 0;
    if (auto vt = dyn_cast<VectorType>(accessType))
      bytes = vt.getNumElements() *
              std::max<int64_t>(1, vt.getElementTypeBitWidth() / 8);
    else
      bytes = std::max<int64_t>(1, accessType.getIntOrFloatBitWidth() / 8);
    recordAccess(accesses[root], memref, indices, bytes, isWrite);
  };
  region.walk([&](Operation *op) {
    std::optional<AccessParts> parts = getAccessParts(op);
    if (!parts)
      return;
    visit(parts->memref, parts->indices, parts->accessType, parts->isWrite);
    // An atomic reads and writes its sector (performed in L2).
    if (isa<memref::AtomicRMWOp>(op))
      visit(parts->memref, parts->indices, parts->accessType, false);
  });

  KernelTraffic result;
  for (auto &[buffer, acc] : accesses) {
    auto type = cast<MemRefType>(buffer.getType());
    int64_t bytes = getStaticBytes(type);
    if (bytes < 0) {
      if (unknown)
        *unknown = true;
      continue;
    }
    // AoS records read at a few constant fields only move the sectors of
    // each record that those fields touch, when records are whole sectors.
    if (acc.constantInnermost && type.getRank() >= 1) {
      int64_t eltBytes = bytes / std::max<int64_t>(1, type.getNumElements());
      int64_t recordElems = type.getShape().back();
      bytes = getRecordFieldBytes(type.getNumElements() / recordElems,
                                  recordElems, eltBytes,
                                  acc.innerPositions.getArrayRef(),
                                  acc.accessBytes);
    }
    BufferTraffic bt;
    bt.buffer = buffer;
    bt.bytesRead = acc.read ? bytes : 0;
    bt.bytesWritten = acc.written ? bytes : 0;
    result.bytesRead += bt.bytesRead;
    result.bytesWritten += bt.bytesWritten;
    result.buffers.push_back(bt);
  }
  return result;
}

int64_t mlir::memopt::getRowGridDramBytes(ArrayRef<int64_t> outer,
                                          ArrayRef<int64_t> order,
                                          ArrayRef<RowGridOperand> operands,
                                          int64_t reuseBytes) {
  int64_t n = outer.size();
  // Distinct bytes one step of the dim at position k of `order` touches.
  auto stepFootprint = [&](int64_t k) {
    int64_t bytes = 0;
    for (const RowGridOperand &b : operands) {
      int64_t f = b.bytesPerRow;
      for (int64_t j = k + 1; j < n; ++j)
        if (b.indexedBy[order[j]])
          f *= outer[order[j]];
      bytes += f;
    }
    return bytes;
  };
  int64_t total = 0;
  for (const RowGridOperand &a : operands) {
    int64_t bytes = a.bytesPerRow;
    for (int64_t d = 0; d < n; ++d)
      if (a.indexedBy[d])
        bytes *= outer[d];
    for (int64_t k = n - 1; k >= 0; --k) {
      int64_t d = order[k];
      if (!a.indexedBy[d] && outer[d] > 1 && stepFootprint(k) > reuseBytes)
        bytes *= outer[d];
    }
    total += bytes;
  }
  return total;
}
