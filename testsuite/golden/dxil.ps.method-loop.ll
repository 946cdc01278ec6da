;
; Resource Bindings:
;
; Name                                 Type  Format         Dim      ID      HLSL Bind  Count
; ------------------------------ ---------- ------- ----------- ------- -------------- ------
;
target datalayout = "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64"
target triple = "dxil-ms-dx"

define void @main() {
  %1 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 undef)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %2 = call i32 @dx.op.loadInput.i32(i32 4, i32 1, i32 0, i8 0, i32 undef)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  br label %3

; <label>:3                                       ; preds = %10, %0
  %4 = phi i32 [ 0, %0 ], [ %19, %10 ]
  %5 = phi float [ undef, %0 ], [ %12, %10 ]
  %6 = phi float [ undef, %0 ], [ %14, %10 ]
  %7 = phi float [ undef, %0 ], [ %16, %10 ]
  %8 = phi float [ undef, %0 ], [ %18, %10 ]
  %9 = icmp slt i32 %4, 4
  br i1 %9, label %10, label %20

; <label>:10                                      ; preds = %3
  %11 = icmp eq i32 %4, 0
  %12 = select i1 %11, float %1, float %5
  %13 = icmp eq i32 %4, 1
  %14 = select i1 %13, float %1, float %6
  %15 = icmp eq i32 %4, 2
  %16 = select i1 %15, float %1, float %7
  %17 = icmp eq i32 %4, 3
  %18 = select i1 %17, float %1, float %8
  %19 = add i32 %4, 1
  br label %3

; <label>:20                                      ; preds = %3
  %21 = fcmp fast ogt float %1, 5.000000e-01
  br i1 %21, label %22, label %24

; <label>:22                                      ; preds = %20
  %23 = fadd fast float %6, 1.000000e+00
  br label %24

; <label>:24                                      ; preds = %22, %20
  %25 = phi float [ %6, %20 ], [ %23, %22 ]
  %26 = icmp eq i32 %2, 1
  %27 = select i1 %26, float %25, float %5
  %28 = icmp eq i32 %2, 2
  %29 = select i1 %28, float %7, float %27
  %30 = icmp eq i32 %2, 3
  %31 = select i1 %30, float %8, float %29
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %31)  ; StoreOutput(outputSigId,rowIndex,colIndex,value)
  ret void
}

; Function Attrs: nounwind readnone
declare float @dx.op.loadInput.f32(i32, i32, i32, i8, i32) #0

; Function Attrs: nounwind readnone
declare i32 @dx.op.loadInput.i32(i32, i32, i32, i8, i32) #0

; Function Attrs: nounwind
declare void @dx.op.storeOutput.f32(i32, i32, i32, i8, float) #1

attributes #0 = { nounwind readnone }
attributes #1 = { nounwind }

!dx.version = !{!0}
!dx.valver = !{!1}
!dx.shaderModel = !{!2}
!dx.entryPoints = !{!3}

!0 = !{i32 1, i32 0}
!1 = !{i32 1, i32 8}
!2 = !{!"ps", i32 6, i32 0}
!3 = !{void ()* @main, !"main", !4, null, null}
!4 = !{!5, !9, null}
!5 = !{!6, !8}
!6 = !{i32 0, !"COLOR", i8 9, i8 0, !7, i8 2, i32 1, i8 1, i32 0, i8 0, null}
!7 = !{i32 0}
!8 = !{i32 1, !"I", i8 4, i8 0, !7, i8 1, i32 1, i8 1, i32 1, i8 0, null}
!9 = !{!10}
!10 = !{i32 0, !"SV_Target", i8 9, i8 16, !7, i8 0, i32 1, i8 1, i32 0, i8 0, null}
