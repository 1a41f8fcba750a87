// RUN: memopt-opt %s --split-input-file --memopt-lower-cluster-ops | FileCheck %s

// A cluster barrier becomes the aligned arrive/wait pair; a read of another
// block's shared memory maps the buffer's shared address into that block's
// window (mapa) and loads through the shared::cluster address space, at the
// element's row-major offset (1 * 3 + 2 = 5).
// CHECK-LABEL: gpu.func @exchange
// CHECK-NOT:     memopt.
// CHECK:         nvvm.cluster.arrive {aligned}
// CHECK-NEXT:    nvvm.cluster.wait {aligned}
// CHECK:         %[[BASE:.+]] = memref.extract_aligned_pointer_as_index %[[T:.+]] : memref<2x3xf32, #gpu.address_space<workgroup>> -> index
// CHECK:         %[[INT:.+]] = arith.index_cast %[[BASE]] : index to i64
// CHECK:         %[[LOCAL:.+]] = llvm.inttoptr %[[INT]] : i64 to !llvm.ptr<3>
// CHECK:         %[[RANK:.+]] = arith.index_cast %{{.+}} : index to i32
// CHECK:         %[[REMOTE:.+]] = nvvm.mapa %[[LOCAL]], %[[RANK]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:         %[[ADDR:.+]] = llvm.getelementptr %[[REMOTE]][%{{.+}}] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, f32
// CHECK:         %[[V:.+]] = llvm.load %[[ADDR]] {alignment = 4 : i64} : !llvm.ptr<7> -> f32
// CHECK:         memref.store %[[V]]
// CHECK-NOT:     memopt.
gpu.module @k {
  gpu.func @exchange(%out: memref<4xf32>, %rank: index)
      workgroup(%t: memref<2x3xf32, #gpu.address_space<workgroup>>) kernel {
    memopt.cluster_barrier
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %v = memopt.cluster_load %t[%c1, %c2] from %rank : memref<2x3xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%c1] : memref<4xf32>
    gpu.return
  }
}

// -----

// An occupancy hint becomes the kernel's nvvm.minctasm (the largest of
// several).
// CHECK-LABEL: gpu.func @hinted
// CHECK-SAME:    nvvm.minctasm = 4 : i32
// CHECK-NOT:     memopt.occupancy_hint
gpu.module @h {
  gpu.func @hinted() kernel {
    memopt.occupancy_hint 2
    memopt.occupancy_hint 4
    gpu.return
  }
}

// -----

// A split barrier: the arrival and the wait lower separately.
// CHECK-LABEL: gpu.func @split
// CHECK:         nvvm.cluster.arrive {aligned}
// CHECK-NEXT:    memref.store
// CHECK-NEXT:    nvvm.cluster.wait {aligned}
// CHECK-NEXT:    gpu.return
gpu.module @s {
  gpu.func @split(%out: memref<4xf32>, %v: f32) kernel {
    %c0 = arith.constant 0 : index
    memopt.cluster_arrive
    memref.store %v, %out[%c0] : memref<4xf32>
    memopt.cluster_wait
    gpu.return
  }
}

// -----

// A last arrival: a zero-initialized global of its 6 counters in the kernel
// module, a workgroup flag, and between two barriers thread 0's fenced
// atomic count, the reset and the acquiring fence on the 4th arrival, and
// the flag's store.
// CHECK:         memref.global "private" @memopt_arrivals : memref<6xi32> = dense<0> {alignment = 4 : i64}
// CHECK-LABEL: gpu.func @arrive
// CHECK-SAME:    workgroup(%[[FLAG:.+]] : memref<1xi32, #gpu.address_space<workgroup>>)
// CHECK:         %[[COUNTERS:.+]] = memref.get_global @memopt_arrivals : memref<6xi32>
// CHECK:         gpu.barrier
// CHECK:         scf.if
// CHECK-NEXT:      llvm.fence syncscope("device") acq_rel
// CHECK:           %[[OLD:.+]] = memref.atomic_rmw addi %{{.+}}, %[[COUNTERS]][%[[SLOT:.+]]] : (i32, memref<6xi32>) -> i32
// CHECK:           %[[LAST:.+]] = arith.cmpi eq, %[[OLD]], %c3_i32
// CHECK-NEXT:      scf.if %[[LAST]] {
// CHECK:             memref.store %{{.+}}, %[[COUNTERS]][%[[SLOT]]]
// CHECK-NEXT:        llvm.fence syncscope("device") acq_rel
// CHECK-NEXT:      }
// CHECK:           memref.store %{{.+}}, %[[FLAG]]
// CHECK:         gpu.barrier
// CHECK:         %[[V:.+]] = memref.load %[[FLAG]]
// CHECK:         arith.cmpi ne, %[[V]]
// CHECK-NOT:     memopt.last_arrival
gpu.module @a {
  gpu.func @arrive(%out: memref<4xi1>, %slot: index) kernel {
    %c0 = arith.constant 0 : index
    %last = memopt.last_arrival %slot of 6 after 4
    memref.store %last, %out[%c0] : memref<4xi1>
    gpu.return
  }
}
