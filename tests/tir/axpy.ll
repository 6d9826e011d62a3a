; ModuleID = 'axpy.tk'
source_filename = "axpy.tk"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @axpy__grid(ptr %0, ptr %1, ptr %2) {
entry:
  br label %start

start:                                            ; preds = %entry
  %3 = getelementptr ptr, ptr %0, i64 0
  %X = load ptr, ptr %3, align 8
  %4 = getelementptr ptr, ptr %0, i64 1
  %Y = load ptr, ptr %4, align 8
  %5 = getelementptr ptr, ptr %0, i64 2
  %a = load ptr, ptr %5, align 8
  %6 = load float, ptr %a, align 4
  %7 = getelementptr i64, ptr %1, i64 0
  %8 = load i64, ptr %7, align 8
  %N = trunc i64 %8 to i32
  %9 = sdiv i32 %N, 64
  %10 = srem i32 %N, 64
  %11 = icmp sgt i32 %N, 0
  %12 = icmp ne i32 %10, 0
  %13 = and i1 %12, %11
  %14 = zext i1 %13 to i32
  %15 = add i32 %9, %14
  %16 = select i1 true, i32 %15, i32 0
  %17 = sext i32 %16 to i64
  %18 = getelementptr i64, ptr %2, i64 0
  store i64 %17, ptr %18, align 8
  %19 = getelementptr i64, ptr %2, i64 1
  store i64 1, ptr %19, align 8
  %20 = getelementptr i64, ptr %2, i64 2
  store i64 1, ptr %20, align 8
  ret void
}

define void @axpy__block(ptr %0, ptr %1, i32 %2, i32 %3, i32 %4) {
entry:
  %x = alloca [64 x float], align 64
  %y = alloca [64 x float], align 64
  %tile = alloca [64 x float], align 64
  br label %start

start:                                            ; preds = %entry
  %5 = getelementptr ptr, ptr %0, i64 0
  %X = load ptr, ptr %5, align 8
  %6 = getelementptr ptr, ptr %0, i64 1
  %Y = load ptr, ptr %6, align 8
  %7 = getelementptr ptr, ptr %0, i64 2
  %a = load ptr, ptr %7, align 8
  %8 = load float, ptr %a, align 4
  %9 = getelementptr i64, ptr %1, i64 0
  %10 = load i64, ptr %9, align 8
  %N = trunc i64 %10 to i32
  %11 = getelementptr i64, ptr %1, i64 0
  %12 = load i64, ptr %11, align 8
  %13 = mul i64 1, %12
  %14 = add i64 0, %13
  %15 = sext i32 %2 to i64
  %16 = icmp slt i64 %15, 1099511627776
  %17 = select i1 %16, i64 %15, i64 1099511627776
  %18 = icmp sgt i64 %17, -1099511627776
  %19 = select i1 %18, i64 %17, i64 -1099511627776
  %20 = mul i64 %19, 64
  %21 = icmp sge i64 %20, 0
  %22 = and i1 true, %21
  %23 = add i64 %20, 64
  %24 = and i1 %22, true
  %25 = icmp sle i64 %23, %14
  %26 = and i1 %24, %25
  br i1 %26, label %gl.inside, label %gl.edge

gl.inside:                                        ; preds = %start
  br label %in.row

gl.edge:                                          ; preds = %start
  call void @llvm.memset.p0.i64(ptr align 64 %x, i8 0, i64 256, i1 false)
  br label %gl.row

gl.done:                                          ; preds = %done5, %done
  %27 = getelementptr i64, ptr %1, i64 0
  %28 = load i64, ptr %27, align 8
  %29 = mul i64 1, %28
  %30 = add i64 0, %29
  %31 = sext i32 %2 to i64
  %32 = icmp slt i64 %31, 1099511627776
  %33 = select i1 %32, i64 %31, i64 1099511627776
  %34 = icmp sgt i64 %33, -1099511627776
  %35 = select i1 %34, i64 %33, i64 -1099511627776
  %36 = mul i64 %35, 64
  %37 = icmp sge i64 %36, 0
  %38 = and i1 true, %37
  %39 = add i64 %36, 64
  %40 = and i1 %38, true
  %41 = icmp sle i64 %39, %30
  %42 = and i1 %40, %41
  br i1 %42, label %gl.inside10, label %gl.edge11

in.row:                                           ; preds = %done2, %gl.inside
  %i = phi i64 [ 0, %gl.inside ], [ %53, %done2 ]
  %43 = icmp slt i64 %i, 1
  br i1 %43, label %body, label %done

body:                                             ; preds = %in.row
  %44 = add i64 0, %i
  %45 = mul i64 %44, %14
  %46 = add i64 %45, %20
  br label %in.col

done:                                             ; preds = %in.row
  br label %gl.done

in.col:                                           ; preds = %body1, %body
  %i3 = phi i64 [ 0, %body ], [ %52, %body1 ]
  %47 = icmp slt i64 %i3, 64
  br i1 %47, label %body1, label %done2

body1:                                            ; preds = %in.col
  %48 = add i64 %46, %i3
  %49 = getelementptr float, ptr %X, i64 %48
  %50 = load float, ptr %49, align 4
  %51 = getelementptr float, ptr %x, i64 %i3
  store float %50, ptr %51, align 4
  %52 = add i64 %i3, 1
  br label %in.col

done2:                                            ; preds = %in.col
  %53 = add i64 %i, 1
  br label %in.row

gl.row:                                           ; preds = %done8, %gl.edge
  %i6 = phi i64 [ 0, %gl.edge ], [ %78, %done8 ]
  %54 = icmp slt i64 %i6, 1
  br i1 %54, label %body4, label %done5

body4:                                            ; preds = %gl.row
  %55 = add i64 0, %i6
  %56 = icmp slt i64 %55, 1
  %57 = icmp sge i64 %55, 0
  %58 = and i1 %57, %56
  %59 = and i1 true, %58
  %60 = add i64 0, %55
  %61 = mul i64 %60, %14
  %62 = sub i64 0, %20
  %63 = icmp sgt i64 %62, 0
  %64 = select i1 %63, i64 %62, i64 0
  %65 = sub i64 %14, %20
  %66 = icmp slt i64 %65, 64
  %67 = select i1 %66, i64 %65, i64 64
  %68 = select i1 %59, i64 %67, i64 0
  %69 = sub i64 %68, %64
  br label %gl.col

done5:                                            ; preds = %gl.row
  br label %gl.done

gl.col:                                           ; preds = %body7, %body4
  %i9 = phi i64 [ 0, %body4 ], [ %77, %body7 ]
  %70 = icmp slt i64 %i9, %69
  br i1 %70, label %body7, label %done8

body7:                                            ; preds = %gl.col
  %71 = add i64 %i9, %64
  %72 = add i64 %20, %71
  %73 = add i64 %61, %72
  %74 = getelementptr float, ptr %X, i64 %73
  %75 = load float, ptr %74, align 4
  %76 = getelementptr float, ptr %x, i64 %71
  store float %75, ptr %76, align 4
  %77 = add i64 %i9, 1
  br label %gl.col

done8:                                            ; preds = %gl.col
  %78 = add i64 %i6, 1
  br label %gl.row

gl.inside10:                                      ; preds = %gl.done
  br label %in.row13

gl.edge11:                                        ; preds = %gl.done
  call void @llvm.memset.p0.i64(ptr align 64 %y, i8 0, i64 256, i1 false)
  br label %gl.row21

gl.done12:                                        ; preds = %done23, %done15
  br label %row

in.row13:                                         ; preds = %done19, %gl.inside10
  %i16 = phi i64 [ 0, %gl.inside10 ], [ %89, %done19 ]
  %79 = icmp slt i64 %i16, 1
  br i1 %79, label %body14, label %done15

body14:                                           ; preds = %in.row13
  %80 = add i64 0, %i16
  %81 = mul i64 %80, %30
  %82 = add i64 %81, %36
  br label %in.col17

done15:                                           ; preds = %in.row13
  br label %gl.done12

in.col17:                                         ; preds = %body18, %body14
  %i20 = phi i64 [ 0, %body14 ], [ %88, %body18 ]
  %83 = icmp slt i64 %i20, 64
  br i1 %83, label %body18, label %done19

body18:                                           ; preds = %in.col17
  %84 = add i64 %82, %i20
  %85 = getelementptr float, ptr %Y, i64 %84
  %86 = load float, ptr %85, align 4
  %87 = getelementptr float, ptr %y, i64 %i20
  store float %86, ptr %87, align 4
  %88 = add i64 %i20, 1
  br label %in.col17

done19:                                           ; preds = %in.col17
  %89 = add i64 %i16, 1
  br label %in.row13

gl.row21:                                         ; preds = %done27, %gl.edge11
  %i24 = phi i64 [ 0, %gl.edge11 ], [ %114, %done27 ]
  %90 = icmp slt i64 %i24, 1
  br i1 %90, label %body22, label %done23

body22:                                           ; preds = %gl.row21
  %91 = add i64 0, %i24
  %92 = icmp slt i64 %91, 1
  %93 = icmp sge i64 %91, 0
  %94 = and i1 %93, %92
  %95 = and i1 true, %94
  %96 = add i64 0, %91
  %97 = mul i64 %96, %30
  %98 = sub i64 0, %36
  %99 = icmp sgt i64 %98, 0
  %100 = select i1 %99, i64 %98, i64 0
  %101 = sub i64 %30, %36
  %102 = icmp slt i64 %101, 64
  %103 = select i1 %102, i64 %101, i64 64
  %104 = select i1 %95, i64 %103, i64 0
  %105 = sub i64 %104, %100
  br label %gl.col25

done23:                                           ; preds = %gl.row21
  br label %gl.done12

gl.col25:                                         ; preds = %body26, %body22
  %i28 = phi i64 [ 0, %body22 ], [ %113, %body26 ]
  %106 = icmp slt i64 %i28, %105
  br i1 %106, label %body26, label %done27

body26:                                           ; preds = %gl.col25
  %107 = add i64 %i28, %100
  %108 = add i64 %36, %107
  %109 = add i64 %97, %108
  %110 = getelementptr float, ptr %Y, i64 %109
  %111 = load float, ptr %110, align 4
  %112 = getelementptr float, ptr %y, i64 %107
  store float %111, ptr %112, align 4
  %113 = add i64 %i28, 1
  br label %gl.col25

done27:                                           ; preds = %gl.col25
  %114 = add i64 %i24, 1
  br label %gl.row21

row:                                              ; preds = %done33, %gl.done12
  %i31 = phi i64 [ 0, %gl.done12 ], [ %141, %done33 ]
  %115 = icmp slt i64 %i31, 1
  br i1 %115, label %body29, label %done30

body29:                                           ; preds = %row
  br label %col

done30:                                           ; preds = %row
  %116 = getelementptr i64, ptr %1, i64 0
  %117 = load i64, ptr %116, align 8
  %118 = mul i64 1, %117
  %119 = add i64 0, %118
  %120 = sext i32 %2 to i64
  %121 = icmp slt i64 %120, 1099511627776
  %122 = select i1 %121, i64 %120, i64 1099511627776
  %123 = icmp sgt i64 %122, -1099511627776
  %124 = select i1 %123, i64 %122, i64 -1099511627776
  %125 = mul i64 %124, 64
  %126 = icmp sge i64 %125, 0
  %127 = and i1 true, %126
  %128 = add i64 %125, 64
  %129 = and i1 %127, true
  %130 = icmp sle i64 %128, %119
  %131 = and i1 %129, %130
  br i1 %131, label %gl.inside35, label %gl.edge36

col:                                              ; preds = %body32, %body29
  %i34 = phi i64 [ 0, %body29 ], [ %140, %body32 ]
  %132 = icmp slt i64 %i34, 64
  br i1 %132, label %body32, label %done33

body32:                                           ; preds = %col
  %133 = getelementptr float, ptr %y, i64 %i34
  %134 = load float, ptr %133, align 4
  %135 = getelementptr float, ptr %x, i64 %i34
  %136 = load float, ptr %135, align 4
  %137 = fmul float %136, %8
  %138 = fadd float %137, %134
  %139 = getelementptr float, ptr %tile, i64 %i34
  store float %138, ptr %139, align 4
  %140 = add i64 %i34, 1
  br label %col

done33:                                           ; preds = %col
  %141 = add i64 %i31, 1
  br label %row

gl.inside35:                                      ; preds = %done30
  br label %in.row38

gl.edge36:                                        ; preds = %done30
  br label %gl.row46

gl.done37:                                        ; preds = %done48, %done40
  ret void

in.row38:                                         ; preds = %done44, %gl.inside35
  %i41 = phi i64 [ 0, %gl.inside35 ], [ %152, %done44 ]
  %142 = icmp slt i64 %i41, 1
  br i1 %142, label %body39, label %done40

body39:                                           ; preds = %in.row38
  %143 = add i64 0, %i41
  %144 = mul i64 %143, %119
  %145 = add i64 %144, %125
  br label %in.col42

done40:                                           ; preds = %in.row38
  br label %gl.done37

in.col42:                                         ; preds = %body43, %body39
  %i45 = phi i64 [ 0, %body39 ], [ %151, %body43 ]
  %146 = icmp slt i64 %i45, 64
  br i1 %146, label %body43, label %done44

body43:                                           ; preds = %in.col42
  %147 = add i64 %145, %i45
  %148 = getelementptr float, ptr %tile, i64 %i45
  %149 = load float, ptr %148, align 4
  %150 = getelementptr float, ptr %Y, i64 %147
  store float %149, ptr %150, align 4
  %151 = add i64 %i45, 1
  br label %in.col42

done44:                                           ; preds = %in.col42
  %152 = add i64 %i41, 1
  br label %in.row38

gl.row46:                                         ; preds = %done52, %gl.edge36
  %i49 = phi i64 [ 0, %gl.edge36 ], [ %177, %done52 ]
  %153 = icmp slt i64 %i49, 1
  br i1 %153, label %body47, label %done48

body47:                                           ; preds = %gl.row46
  %154 = add i64 0, %i49
  %155 = icmp slt i64 %154, 1
  %156 = icmp sge i64 %154, 0
  %157 = and i1 %156, %155
  %158 = and i1 true, %157
  %159 = add i64 0, %154
  %160 = mul i64 %159, %119
  %161 = sub i64 0, %125
  %162 = icmp sgt i64 %161, 0
  %163 = select i1 %162, i64 %161, i64 0
  %164 = sub i64 %119, %125
  %165 = icmp slt i64 %164, 64
  %166 = select i1 %165, i64 %164, i64 64
  %167 = select i1 %158, i64 %166, i64 0
  %168 = sub i64 %167, %163
  br label %gl.col50

done48:                                           ; preds = %gl.row46
  br label %gl.done37

gl.col50:                                         ; preds = %body51, %body47
  %i53 = phi i64 [ 0, %body47 ], [ %176, %body51 ]
  %169 = icmp slt i64 %i53, %168
  br i1 %169, label %body51, label %done52

body51:                                           ; preds = %gl.col50
  %170 = add i64 %i53, %163
  %171 = add i64 %125, %170
  %172 = add i64 %160, %171
  %173 = getelementptr float, ptr %tile, i64 %170
  %174 = load float, ptr %173, align 4
  %175 = getelementptr float, ptr %Y, i64 %172
  store float %174, ptr %175, align 4
  %176 = add i64 %i53, 1
  br label %gl.col50

done52:                                           ; preds = %gl.col50
  %177 = add i64 %i49, 1
  br label %gl.row46
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #0

attributes #0 = { nocallback nofree nounwind willreturn memory(argmem: write) }
