// RUN: memopt-opt %s | memopt-opt | FileCheck %s
// RUN: memopt-opt %s --mlir-print-op-generic | memopt-opt | FileCheck %s

// memopt's operations round-trip through both printed forms.
// CHECK-LABEL: func.func @round_trip
// CHECK:         memopt.cluster_barrier
// CHECK-NEXT:    memopt.cluster_arrive
// CHECK-NEXT:    memopt.cluster_wait
// CHECK-NEXT:    memopt.occupancy_hint 2
// CHECK-NEXT:    %{{.+}} = memopt.cluster_load %{{.+}}[%{{.+}}, %{{.+}}] from %{{.+}} : memref<2x32xf16, #gpu.address_space<workgroup>>
func.func @round_trip(%m: memref<2x32xf16, #gpu.address_space<workgroup>>, %i: index, %r: index) -> f16 {
  memopt.cluster_barrier
  memopt.cluster_arrive
  memopt.cluster_wait
  memopt.occupancy_hint 2
  %v = memopt.cluster_load %m[%i, %i] from %r : memref<2x32xf16, #gpu.address_space<workgroup>>
  return %v : f16
}
