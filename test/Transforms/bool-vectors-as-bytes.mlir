// RUN: memopt-opt %s --memopt-bool-vectors-as-bytes | FileCheck %s

// Vector-of-i1 memory accesses move bytes; scalar i1 accesses (already a
// byte each) and other vectors are left alone.
// CHECK-LABEL: llvm.func @bools(
// CHECK-SAME: %[[P:.*]]: !llvm.ptr, %[[Q:.*]]: !llvm.ptr, %[[M:.*]]: vector<4xi1>
// CHECK: %[[L:.*]] = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr -> vector<4xi8>
// CHECK: %[[T:.*]] = llvm.trunc %[[L]] : vector<4xi8> to vector<4xi1>
// CHECK: %[[N:.*]] = llvm.xor %[[T]], %[[M]] : vector<4xi1>
// CHECK: %[[Z:.*]] = llvm.zext %[[N]] : vector<4xi1> to vector<4xi8>
// CHECK: llvm.store %[[Z]], %[[Q]] {alignment = 4 : i64} : vector<4xi8>, !llvm.ptr
// CHECK: llvm.load %[[P]] : !llvm.ptr -> i1
// CHECK: llvm.load %[[P]] {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
// CHECK: %[[PT:.*]] = llvm.zext %[[M]] : vector<4xi1> to vector<4xi8>
// CHECK: %[[ML:.*]] = llvm.intr.masked.load %[[P]], %[[M]], %[[PT]] {alignment = 1 : i32} : (!llvm.ptr, vector<4xi1>, vector<4xi8>) -> vector<4xi8>
// CHECK: %[[MT:.*]] = llvm.trunc %[[ML]] : vector<4xi8> to vector<4xi1>
// CHECK: %[[MZ:.*]] = llvm.zext %[[MT]] : vector<4xi1> to vector<4xi8>
// CHECK: llvm.intr.masked.store %[[MZ]], %[[Q]], %[[M]] {alignment = 1 : i32} : vector<4xi8>, vector<4xi1> into !llvm.ptr
llvm.func @bools(%p: !llvm.ptr, %q: !llvm.ptr, %m: vector<4xi1>) {
  %v = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> vector<4xi1>
  %n = llvm.xor %v, %m : vector<4xi1>
  llvm.store %n, %q {alignment = 4 : i64} : vector<4xi1>, !llvm.ptr
  %s = llvm.load %p : !llvm.ptr -> i1
  %f = llvm.load %p {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
  %ml = llvm.intr.masked.load %p, %m, %m {alignment = 1 : i32} : (!llvm.ptr, vector<4xi1>, vector<4xi1>) -> vector<4xi1>
  llvm.intr.masked.store %ml, %q, %m {alignment = 1 : i32} : vector<4xi1>, vector<4xi1> into !llvm.ptr
  llvm.return
}
