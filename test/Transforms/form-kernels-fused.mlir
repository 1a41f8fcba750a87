// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=fused block-size=256 max-threads-per-block=1024 warp-size=32 vector-bytes=16 row-chunks-per-thread=4 max-cluster-size=1}, canonicalize, cse))" | FileCheck %s

// Fused strategy: row groups, vectorized elementwise chains, tiled transposes,
// column reductions with atomics.

// A row group (fill + reduce + epilogue) is ONE kernel: one CTA per row,
// 16-byte vector accesses, a warp shuffle reduction, and the row statistic never
// reaches memory (its buffer is gone). 128 columns fit one warp: no barrier.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#sc = affine_map<(d0) -> ()>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @rmsnorm_row_group
// CHECK-SAME:    (%[[A:.+]]: memref<64x128xf32>, %[[O:.+]]: memref<64x128xf32>)
// CHECK-NOT:     memref.alloc
// CHECK-DAG:     %[[C64:.+]] = arith.constant 64 : index
// CHECK-DAG:     %[[C32:.+]] = arith.constant 32 : index
// CHECK:         gpu.launch blocks(%[[ROW:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C64]], {{.*}}) threads({{.*}}) in (%{{.+}} = %[[C32]],
// CHECK:           vector.load %[[A]][%[[ROW]], %[[COL:[a-z0-9_]+]]] {alignment = 16 : i64} : memref<64x128xf32>, vector<4xf32>
// CHECK:           gpu.shuffle xor
// CHECK-COUNT-4:   gpu.shuffle xor
// CHECK:           math.rsqrt
// CHECK:           vector.store %{{.+}}, %[[O]][%[[ROW]], %[[COL]]] {alignment = 16 : i64} : memref<64x128xf32>, vector<4xf32>
// CHECK:           gpu.terminator
// CHECK-NOT:     gpu.launch
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     memref.dealloc
func.func @rmsnorm_row_group(%a: memref<64x128xf32>, %o: memref<64x128xf32>) {
  %z = arith.constant 0.0 : f32
  %t = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
  linalg.generic {indexing_maps = [#sc, #id1], iterator_types = ["parallel"]}
      ins(%z : f32) outs(%t : memref<64xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<64x128xf32>) outs(%t : memref<64xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %sq = arith.mulf %x, %x : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %t : memref<64x128xf32>, memref<64xf32>) outs(%o : memref<64x128xf32>) {
  ^bb0(%x: f32, %s: f32, %y: f32):
    %r = math.rsqrt %s : f32
    %m = arith.mulf %x, %r : f32
    linalg.yield %m : f32
  }
  memref.dealloc %t : memref<64xf32>
  return
}

// -----

// Rows of 1024 need several warps: partial sums meet in workgroup memory
// behind a barrier.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#sc = affine_map<(d0) -> ()>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @row_group_block_reduction
// CHECK-NOT:     memref.alloc
// CHECK:         gpu.launch {{.*}} workgroup(%[[SMEM:.+]] : memref<1x32xf32, #gpu.address_space<workgroup>>)
// CHECK-COUNT-4:   vector.load %{{.+}} {alignment = 16 : i64} : memref<64x1024xf32>, vector<4xf32>
// CHECK-COUNT-5:   gpu.shuffle xor
// CHECK:           memref.store %{{.+}}, %[[SMEM]]
// CHECK:           gpu.barrier
// CHECK:           memref.load %[[SMEM]]
// CHECK-COUNT-4:   vector.store %{{.+}} {alignment = 16 : i64} : memref<64x1024xf32>, vector<4xf32>
// CHECK-NOT:     gpu.launch
func.func @row_group_block_reduction(%a: memref<64x1024xf32>, %o: memref<64x1024xf32>) {
  %z = arith.constant 0.0 : f32
  %t = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
  linalg.generic {indexing_maps = [#sc, #id1], iterator_types = ["parallel"]}
      ins(%z : f32) outs(%t : memref<64xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<64x1024xf32>) outs(%t : memref<64xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %t : memref<64x1024xf32>, memref<64xf32>) outs(%o : memref<64x1024xf32>) {
  ^bb0(%x: f32, %s: f32, %y: f32):
    %m = arith.subf %x, %s : f32
    linalg.yield %m : f32
  }
  memref.dealloc %t : memref<64xf32>
  return
}

// -----

// A reduction whose result is a function output is written once per row, by
// one thread.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#sc = affine_map<(d0) -> ()>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @row_max_to_output
// CHECK-SAME:    (%[[A:.+]]: memref<32x256xf32>, %[[O:.+]]: memref<32xf32>)
// CHECK:         gpu.launch blocks(%[[ROW:[a-z0-9_]+]], %{{.+}}, %{{.+}}) in
// CHECK:           gpu.shuffle xor
// CHECK:           arith.maximumf
// CHECK:           scf.if
// CHECK-NEXT:        memref.store %{{.+}}, %[[O]][%[[ROW]]] : memref<32xf32>
func.func @row_max_to_output(%a: memref<32x256xf32>, %o: memref<32xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  linalg.generic {indexing_maps = [#sc, #id1], iterator_types = ["parallel"]}
      ins(%ninf : f32) outs(%o : memref<32xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<32x256xf32>) outs(%o : memref<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// An elementwise chain is one kernel with vector loads; the intermediate
// buffer disappears. The broadcast operand is read as a vector too.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @elementwise_chain
// CHECK-SAME:    (%[[A:.+]]: memref<64x128xf32>, %[[B:.+]]: memref<128xf32>, %[[O:.+]]: memref<64x128xf32>)
// CHECK-NOT:     memref.alloc
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:     %[[C256:.+]] = arith.constant 256 : index
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.+}} = %[[C8]], {{.*}}) threads({{.*}}) in (%{{.+}} = %[[C256]],
// CHECK:           %[[VA:.+]] = vector.load %[[A]][%[[I:[a-z0-9_]+]], %[[J:[a-z0-9_]+]]] {alignment = 16 : i64} : memref<64x128xf32>, vector<4xf32>
// CHECK:           %[[VB:.+]] = vector.load %[[B]][%[[J]]] {alignment = 16 : i64} : memref<128xf32>, vector<4xf32>
// CHECK-COUNT-4:   arith.addf
// CHECK-COUNT-4:   math.tanh
// CHECK:           %[[R:[a-z0-9_]+]] = vector.from_elements
// CHECK:           vector.store %[[R]], %[[O]][%[[I]], %[[J]]] {alignment = 16 : i64} : memref<64x128xf32>, vector<4xf32>
// CHECK-NOT:     gpu.launch
// CHECK-NOT:     memref.dealloc
func.func @elementwise_chain(%a: memref<64x128xf32>, %b: memref<128xf32>, %o: memref<64x128xf32>) {
  %t = memref.alloc() {alignment = 64 : i64} : memref<64x128xf32>
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<64x128xf32>, memref<128xf32>) outs(%t : memref<64x128xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<64x128xf32>) outs(%o : memref<64x128xf32>) {
  ^bb0(%x: f32, %z: f32):
    %s = math.tanh %x : f32
    linalg.yield %s : f32
  }
  memref.dealloc %t : memref<64x128xf32>
  return
}

// -----

// An intermediate that is also a function output must still be stored.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @intermediate_is_output
// CHECK-SAME:    (%[[A:.+]]: memref<1024xf32>, %[[H:.+]]: memref<1024xf32>, %[[O:.+]]: memref<1024xf32>)
// CHECK:         gpu.launch
// CHECK-DAG:       vector.store %{{.+}}, %[[H]][%{{.+}}] {alignment = 16 : i64}
// CHECK-DAG:       vector.store %{{.+}}, %[[O]][%{{.+}}] {alignment = 16 : i64}
// CHECK:           gpu.terminator
// CHECK-NOT:     gpu.launch
func.func @intermediate_is_output(%a: memref<1024xf32>, %h: memref<1024xf32>, %o: memref<1024xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<1024xf32>) outs(%h : memref<1024xf32>) {
  ^bb0(%x: f32, %z: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%h : memref<1024xf32>) outs(%o : memref<1024xf32>) {
  ^bb0(%x: f32, %z: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A length that is not a multiple of the vector width gets scalar, guarded
// accesses.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @elementwise_odd_length
// CHECK:         gpu.launch
// CHECK-NOT:       vector.load
// CHECK:           scf.if
// CHECK:             memref.load %{{.+}} : memref<10007xf32>
// CHECK:             memref.store %{{.+}} : memref<10007xf32>
func.func @elementwise_odd_length(%a: memref<10007xf32>, %o: memref<10007xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<10007xf32>) outs(%o : memref<10007xf32>) {
  ^bb0(%x: f32, %z: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A transpose is staged through a 32x32 workgroup tile (memopt-bank-fix
// repairs its column reads later).
#tr = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @transpose_tile
// CHECK-SAME:    (%[[A:.+]]: memref<256x128xf32>, %[[O:.+]]: memref<128x256xf32>)
// CHECK-DAG:     %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.+}} = %[[C32]], {{.*}}) threads(%[[TX:[a-z0-9_]+]], %[[TY:[a-z0-9_]+]], %{{.+}}) in (%{{.+}} = %[[C32]], %{{.+}} = %[[C8]], {{.*}}) workgroup(%[[TILE:.+]] : memref<32x32xf32, #gpu.address_space<workgroup>>)
// CHECK:           %[[V:.+]] = memref.load %[[A]]
// CHECK:           memref.store %[[V]], %[[TILE]][%[[TY]], %[[TX]]]
// CHECK:           gpu.barrier
// CHECK:           %[[W:.+]] = memref.load %[[TILE]][%[[TX]], %[[TY]]]
// CHECK:           memref.store %[[W]], %[[O]]
func.func @transpose_tile(%a: memref<256x128xf32>, %o: memref<128x256xf32>) {
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<256x128xf32>) outs(%o : memref<128x256xf32>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// Odd transpose sizes (257x129): every tile access is guarded.
#tr = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @transpose_odd
// CHECK-DAG:     %[[C45:.+]] = arith.constant 45 : index
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.+}} = %[[C45]], {{.*}} workgroup(%[[TILE:.+]] : memref<32x32xf32, #gpu.address_space<workgroup>>)
// CHECK:           scf.if
// CHECK-NEXT:        memref.load %{{.+}} : memref<257x129xf32>
// CHECK-NEXT:        memref.store %{{.+}}, %[[TILE]]
// CHECK:           gpu.barrier
// CHECK:           scf.if
// CHECK-NEXT:        memref.load %[[TILE]]
// CHECK-NEXT:        memref.store %{{.+}} : memref<129x257xf32>
func.func @transpose_odd(%a: memref<257x129xf32>, %o: memref<129x257xf32>) {
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<257x129xf32>) outs(%o : memref<129x257xf32>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// A column reduction ([reduction, parallel]) of 128 columns: too few rows
// (256) to split across blocks, so whole columns in 8 blocks, seeded by the
// fill (one kernel, no atomics): each thread accumulates its rows in
// registers, the block combines them through shared memory.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#sc = affine_map<(d0) -> ()>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @column_reduction
// CHECK-SAME:    (%[[A:.+]]: memref<256x128xf32>, %[[O:.+]]: memref<128xf32>)
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c8,
// CHECK-NOT:       memref.atomic_rmw
// CHECK:             vector.load %[[A]]{{.*}} {alignment = 16 : i64} : memref<256x128xf32>, vector<4xf32>
// CHECK:           gpu.barrier
// CHECK:           memref.store %{{.+}}, %[[O]][%{{.+}}] : memref<128xf32>
// CHECK:           gpu.terminator
// CHECK-NOT:     gpu.launch
func.func @column_reduction(%a: memref<256x128xf32>, %o: memref<128xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#sc, #id1], iterator_types = ["parallel"]}
      ins(%z : f32) outs(%o : memref<128xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%a : memref<256x128xf32>) outs(%o : memref<128xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Rows of 1000: 250 vector chunks over 64 threads, the last chunk guarded.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#sc = affine_map<(d0) -> ()>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @row_of_1000
// CHECK-DAG:     %[[C64:.+]] = arith.constant 64 : index
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.+}} = %[[C64]], {{.*}}) threads({{.*}}) in (%{{.+}} = %[[C64]],
// CHECK-COUNT-4:   vector.load %{{.+}} : memref<64x1000xf32>, vector<4xf32>
// CHECK:           arith.select
// CHECK:           gpu.shuffle xor
// CHECK:           gpu.barrier
func.func @row_of_1000(%a: memref<64x1000xf32>, %o: memref<64xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#sc, #id1], iterator_types = ["parallel"]}
      ins(%z : f32) outs(%o : memref<64xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<64x1000xf32>) outs(%o : memref<64xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// bf16 rows with an f32 accumulator: bf16 vector loads, extf before the
// arithmetic, truncf before the bf16 vector store.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#sc = affine_map<(d0) -> ()>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @bf16_row_group
// CHECK-NOT:     memref.alloc
// CHECK:         gpu.launch
// CHECK:           vector.load %{{.+}} : memref<16x512xbf16>, vector<{{[0-9]+}}xbf16>
// CHECK:           arith.extf %{{.+}} : bf16 to f32
// CHECK:           gpu.shuffle xor %{{.+}} : f32
// CHECK:           arith.truncf %{{.+}} : f32 to bf16
// CHECK:           vector.store %{{.+}} : memref<16x512xbf16>, vector<{{[0-9]+}}xbf16>
// CHECK-NOT:     gpu.launch
func.func @bf16_row_group(%a: memref<16x512xbf16>, %o: memref<16x512xbf16>) {
  %z = arith.constant 0.0 : f32
  %t = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  linalg.generic {indexing_maps = [#sc, #id1], iterator_types = ["parallel"]}
      ins(%z : f32) outs(%t : memref<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<16x512xbf16>) outs(%t : memref<16xf32>) {
  ^bb0(%x: bf16, %acc: f32):
    %f = arith.extf %x : bf16 to f32
    %sq = arith.mulf %f, %f : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %t : memref<16x512xbf16>, memref<16xf32>) outs(%o : memref<16x512xbf16>) {
  ^bb0(%x: bf16, %s: f32, %y: bf16):
    %f = arith.extf %x : bf16 to f32
    %r = math.rsqrt %s : f32
    %m = arith.mulf %f, %r : f32
    %t2 = arith.truncf %m : f32 to bf16
    linalg.yield %t2 : bf16
  }
  memref.dealloc %t : memref<16xf32>
  return
}

// -----

// An f16 elementwise op: 16-byte accesses are 8 halves.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @f16_elementwise
// CHECK:         gpu.launch
// CHECK:           vector.load %{{.+}} {alignment = 16 : i64} : memref<32x256xf16>, vector<8xf16>
// CHECK:           vector.store %{{.+}} {alignment = 16 : i64} : memref<32x256xf16>, vector<8xf16>
func.func @f16_elementwise(%a: memref<32x256xf16>, %o: memref<32x256xf16>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<32x256xf16>) outs(%o : memref<32x256xf16>) {
  ^bb0(%x: f16, %z: f16):
    %s = arith.mulf %x, %x : f16
    linalg.yield %s : f16
  }
  return
}

// -----

// Elementwise work on both sides of a transpose joins its tiled kernel: the
// prologue (exp) runs at the input's position while the tile is loaded, the
// epilogue (+ b[j]) at the output's position while it is stored; neither
// intermediate is allocated.
#tr = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @transpose_prologue_epilogue
// CHECK-SAME:    (%[[A:.+]]: memref<64x96xf32>, %[[B:.+]]: memref<64xf32>, %[[O:.+]]: memref<96x64xf32>)
// CHECK-NOT:     memref.alloc
// CHECK:         gpu.launch
// CHECK-SAME:      workgroup(%[[TILE:.+]] : memref<32x32xf32, #gpu.address_space<workgroup>>)
// CHECK:           %[[V:.+]] = memref.load %[[A]]
// CHECK:           %[[E:.+]] = math.exp %[[V]]
// CHECK:           memref.store %[[E]], %[[TILE]]
// CHECK:           gpu.barrier
// CHECK:           %[[W:.+]] = memref.load %[[TILE]]
// CHECK:           %[[BJ:.+]] = memref.load %[[B]]
// CHECK:           %[[S:.+]] = arith.addf %[[W]], %[[BJ]]
// CHECK:           memref.store %[[S]], %[[O]]
// CHECK-NOT:     gpu.launch
// CHECK-NOT:     linalg.generic
func.func @transpose_prologue_epilogue(%a: memref<64x96xf32>, %b: memref<64xf32>, %o: memref<96x64xf32>) {
  %p = memref.alloc() : memref<64x96xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x96xf32>) outs(%p : memref<64x96xf32>) {
  ^bb0(%x: f32, %z: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  %t = memref.alloc() : memref<96x64xf32>
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p : memref<64x96xf32>) outs(%t : memref<96x64xf32>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t, %b : memref<96x64xf32>, memref<64xf32>) outs(%o : memref<96x64xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Rows over the register budget (131072 elements: 128 per thread at 1024
// threads) are streamed: a loop over tiles of one 16-byte chunk per thread
// accumulates the thread's partial, the block combines it once.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// The launch reserves just under half of a multiprocessor's shared memory
// (a sum alone walks the row once: two rows in flight per multiprocessor).
// CHECK-LABEL: func.func @row_streamed
// CHECK-DAG:     %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG:     %[[RES:.+]] = arith.constant 114688 : i32
// CHECK:         gpu.launch blocks({{.*}}) threads(%[[TX:[a-z0-9_]+]], {{.*}}) in (%{{.+}} = %c1024, {{.*}} dynamic_shared_memory_size %[[RES]]
// CHECK:           %[[P:.+]] = scf.for %[[T:.+]] = %c0 to %[[C32]] step %c1 iter_args(%[[ACC:.+]] = %{{.+}}) -> (f32)
// CHECK:             %[[V:.+]] = vector.load %{{.+}} {alignment = 16 : i64} : memref<4x131072xf32>, vector<4xf32>
// CHECK:             scf.yield
// CHECK:           gpu.shuffle xor %[[P]]
// CHECK-NOT:     scf.for
func.func @row_streamed(%a: memref<4x131072xf32>, %o: memref<4xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<4x131072xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Softmax over long rows: one pass per reduction (max, then the sum of
// exp(x - max), which recomputes the exp from x, walking the 17 tiles
// backwards) and one for the output;
// the maximum and the sum share one buffer, each pass sees the value of
// its position.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#sc = affine_map<(d0) -> ()>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @softmax_streamed
// CHECK:         gpu.launch
// CHECK:           %[[MAXP:.+]] = scf.for
// CHECK:             arith.maxnumf
// CHECK:           gpu.shuffle xor %[[MAXP]]
// CHECK:           gpu.barrier
// CHECK:           %[[SUMP:.+]] = scf.for %[[T2:[a-z0-9_]+]] =
// CHECK:             arith.subi %c16, %[[T2]]
// CHECK:             arith.subf %{{.+}}, %[[MAX:[a-z0-9_]+]] : f32
// CHECK:             math.exp
// CHECK:           gpu.shuffle xor %[[SUMP]]
// CHECK:           gpu.barrier
// CHECK:           scf.for
// CHECK:             arith.subf %{{.+}}, %[[MAX]] : f32
// CHECK:             %[[E:.+]] = math.exp
// CHECK:             arith.divf %[[E]], %[[SUM:[a-z0-9_]+]] : f32
// CHECK-NOT:         arith.divf %{{.+}}, %[[MAX]]
// CHECK:             vector.store
func.func @softmax_streamed(%x: memref<2x69632xf32>, %y: memref<2x69632xf32>) {
  %ninf = arith.constant 0xFFC00000 : f32
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<2xf32>
  linalg.generic {indexing_maps = [#sc, #id1], iterator_types = ["parallel"]}
      ins(%ninf : f32) outs(%s : memref<2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<2x69632xf32>) outs(%s : memref<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maxnumf %in, %acc : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<2x69632xf32>, memref<2xf32>) outs(%y : memref<2x69632xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#sc, #id1], iterator_types = ["parallel"]}
      ins(%zero : f32) outs(%s : memref<2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<2x69632xf32>) outs(%s : memref<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %s : memref<2x69632xf32>, memref<2xf32>) outs(%y : memref<2x69632xf32>) {
  ^bb0(%in: f32, %sm: f32, %out: f32):
    %q = arith.divf %in, %sm : f32
    linalg.yield %q : f32
  }
  return
}
