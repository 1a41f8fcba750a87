// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=naive block-size=256}, canonicalize, cse))" | FileCheck %s
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=naive block-size=128}, canonicalize, cse))" | FileCheck %s --check-prefix=BS128

// Naive strategy: one gpu.launch per linalg.generic, one thread per point of the
// parallel space, scalar memref.load/store, reductions as a sequential scf.for.

#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME:    (%[[A:.+]]: memref<64x128xf32>, %[[O:.+]]: memref<64x128xf32>)
// CHECK-DAG:     %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG:     %[[C256:.+]] = arith.constant 256 : index
// CHECK:         gpu.launch blocks(%[[BX:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C32]], %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) threads(%[[TX:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C256]],
// CHECK:           %[[V:.+]] = memref.load %[[A]][%[[I:[a-z0-9_]+]], %[[J:[a-z0-9_]+]]] : memref<64x128xf32>
// CHECK:           %[[E:.+]] = math.exp %[[V]] : f32
// CHECK:           memref.store %[[E]], %[[O]][%[[I]], %[[J]]] : memref<64x128xf32>
// CHECK:           gpu.terminator
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     vector.load
// BS128-LABEL: func.func @elementwise
// BS128-DAG:     %[[C64:.+]] = arith.constant 64 : index
// BS128-DAG:     %[[C128:.+]] = arith.constant 128 : index
// BS128:         gpu.launch blocks({{.*}}) in (%{{.+}} = %[[C64]], {{.*}}) threads({{.*}}) in (%{{.+}} = %[[C128]],
func.func @elementwise(%a: memref<64x128xf32>, %o: memref<64x128xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x128xf32>) outs(%o : memref<64x128xf32>) {
  ^bb0(%x: f32, %y: f32):
    %t = math.exp %x : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// The innermost parallel loop maps to consecutive threads (coalesced): the
// column index is the linear thread id modulo the row length.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @coalesced_mapping
// CHECK-DAG:     %[[C128:.+]] = arith.constant 128 : index
// CHECK:         gpu.launch blocks(%[[BX:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in {{.*}} threads(%[[TX:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in
// CHECK:           %[[BASE:.+]] = arith.muli %[[BX]], %{{.+}} : index
// CHECK:           %[[LIN:.+]] = arith.addi %[[BASE]], %[[TX]] : index
// CHECK-DAG:       %[[COL:[a-z0-9_]+]] = arith.remui %[[LIN]], %[[C128]] : index
// CHECK-DAG:       %[[ROW:[a-z0-9_]+]] = arith.divui %[[LIN]], %[[C128]] : index
// CHECK:           memref.load %{{.+}}[%[[ROW]], %[[COL]]]
func.func @coalesced_mapping(%a: memref<64x128xf32>, %o: memref<64x128xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x128xf32>) outs(%o : memref<64x128xf32>) {
  ^bb0(%x: f32, %y: f32):
    %t = arith.negf %x : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// Two ops give two kernels, even when the second consumes the first.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @two_ops_two_kernels
// CHECK:         %[[T:.+]] = memref.alloc() {{.*}}: memref<1024xf32>
// CHECK:         gpu.launch
// CHECK:           math.exp
// CHECK:           memref.store %{{.+}}, %[[T]]
// CHECK:           gpu.terminator
// CHECK:         gpu.launch
// CHECK:           memref.load %[[T]]
// CHECK:           math.log
// CHECK:           gpu.terminator
// CHECK-NOT:     gpu.launch
func.func @two_ops_two_kernels(%a: memref<1024xf32>, %o: memref<1024xf32>) {
  %t = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<1024xf32>) outs(%t : memref<1024xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : memref<1024xf32>) outs(%o : memref<1024xf32>) {
  ^bb0(%x: f32, %y: f32):
    %l = math.log %x : f32
    linalg.yield %l : f32
  }
  memref.dealloc %t : memref<1024xf32>
  return
}

// -----

// A row reduction: one thread per row, the reduction loop runs in the thread,
// starting from the value already in the output.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @row_reduction
// CHECK-SAME:    (%[[A:.+]]: memref<64x128xf32>, %[[O:.+]]: memref<64xf32>)
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C128:.+]] = arith.constant 128 : index
// CHECK:         gpu.launch
// CHECK:           %[[INIT:.+]] = memref.load %[[O]][%[[R:[a-z0-9_]+]]] : memref<64xf32>
// CHECK:           %[[SUM:.+]] = scf.for %[[K:[a-z0-9_]+]] = %[[C0]] to %[[C128]] step %[[C1]] iter_args(%[[ACC:.+]] = %[[INIT]]) -> (f32) {
// CHECK:             %[[X:.+]] = memref.load %[[A]][%[[R]], %[[K]]] : memref<64x128xf32>
// CHECK:             %[[S:.+]] = arith.addf %[[X]], %[[ACC]] : f32
// CHECK:             scf.yield %[[S]] : f32
// CHECK:           memref.store %[[SUM]], %[[O]][%[[R]]] : memref<64xf32>
// CHECK-NOT:       gpu.shuffle
// CHECK-NOT:       gpu.barrier
func.func @row_reduction(%a: memref<64x128xf32>, %o: memref<64xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<64x128xf32>) outs(%o : memref<64xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// A point count that is not a multiple of the block size is guarded.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @odd_length_guard
// CHECK-DAG:     %[[N:.+]] = arith.constant 10007 : index
// CHECK-DAG:     %[[C40:.+]] = arith.constant 40 : index
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.+}} = %[[C40]],
// CHECK:           %[[IN:.+]] = arith.cmpi ult, %[[I:[a-z0-9_]+]], %[[N]] : index
// CHECK:           scf.if %[[IN]] {
// CHECK:             memref.load %{{.+}}[%[[I]]] : memref<10007xf32>
// CHECK:             memref.store
// BS128-LABEL: func.func @odd_length_guard
// BS128:         %[[C79:.+]] = arith.constant 79 : index
// BS128:         gpu.launch blocks({{.*}}) in (%{{.+}} = %[[C79]],
func.func @odd_length_guard(%a: memref<10007xf32>, %o: memref<10007xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<10007xf32>) outs(%o : memref<10007xf32>) {
  ^bb0(%x: f32, %z: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A transpose is still one thread per output point, no shared memory.
#tr = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @transpose_naive
// CHECK:         gpu.launch
// CHECK-NOT:       workgroup
// CHECK:           %[[V:.+]] = memref.load %{{.+}}[%[[J:[a-z0-9_]+]], %[[I:[a-z0-9_]+]]] : memref<257x129xf32>
// CHECK:           memref.store %[[V]], %{{.+}}[%[[I]], %[[J]]] : memref<129x257xf32>
// CHECK-NOT:       gpu.barrier
func.func @transpose_naive(%a: memref<257x129xf32>, %o: memref<129x257xf32>) {
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<257x129xf32>) outs(%o : memref<129x257xf32>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// bf16 in, f32 arithmetic in the body, bf16 out: scalar bf16 accesses.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @bf16_scalar
// CHECK:         gpu.launch
// CHECK:           %[[X:.+]] = memref.load %{{.+}} : memref<512xbf16>
// CHECK:           %[[XF:.+]] = arith.extf %[[X]] : bf16 to f32
// CHECK:           %[[T:.+]] = arith.truncf %{{.+}} : f32 to bf16
// CHECK:           memref.store %[[T]], %{{.+}} : memref<512xbf16>
// CHECK-NOT:       vector.
func.func @bf16_scalar(%a: memref<512xbf16>, %o: memref<512xbf16>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<512xbf16>) outs(%o : memref<512xbf16>) {
  ^bb0(%x: bf16, %z: bf16):
    %f = arith.extf %x : bf16 to f32
    %m = arith.mulf %f, %f : f32
    %t = arith.truncf %m : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}

// -----

// A scalar operand (map () ) becomes a plain SSA value inside the kernel, and a
// constant-index map (an AoS field) becomes a constant index.
#f3 = affine_map<(d0) -> (d0, 3)>
#sc = affine_map<(d0) -> ()>
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @scalar_and_field
// CHECK-SAME:    (%[[P:.+]]: memref<256x8xf32>, %[[O:.+]]: memref<256xf32>)
// CHECK-DAG:     %[[K:[a-z0-9_]+]] = arith.constant 2.500000e+00 : f32
// CHECK-DAG:     %[[C3:.+]] = arith.constant 3 : index
// CHECK:         gpu.launch
// CHECK:           %[[V:.+]] = memref.load %[[P]][%[[I:[a-z0-9_]+]], %[[C3]]] : memref<256x8xf32>
// CHECK:           %[[M:.+]] = arith.mulf %[[V]], %[[K]] : f32
// CHECK:           memref.store %[[M]], %[[O]][%[[I]]] : memref<256xf32>
func.func @scalar_and_field(%p: memref<256x8xf32>, %o: memref<256xf32>) {
  %k = arith.constant 2.5 : f32
  linalg.generic {indexing_maps = [#f3, #sc, #id], iterator_types = ["parallel"]}
      ins(%p, %k : memref<256x8xf32>, f32) outs(%o : memref<256xf32>) {
  ^bb0(%x: f32, %s: f32, %z: f32):
    %m = arith.mulf %x, %s : f32
    linalg.yield %m : f32
  }
  return
}
