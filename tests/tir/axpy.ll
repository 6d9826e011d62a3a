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
  %21 = getelementptr i64, ptr %2, i64 3
  store i64 262784, ptr %21, align 8
  ret void
}

define void @axpy__block(ptr %0, ptr %1, i32 %2, i32 %3, i32 %4) {
entry:
  %x = alloca [64 x float], align 64
  %y = alloca [64 x float], align 64
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

gl.done:                                          ; preds = %done2, %done
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
  br i1 %42, label %gl.inside7, label %gl.edge8

in.row:                                           ; preds = %body, %gl.inside
  %i = phi i64 [ 0, %gl.inside ], [ %55, %body ]
  %43 = icmp slt i64 %i, 1
  br i1 %43, label %body, label %done

body:                                             ; preds = %in.row
  %44 = add i64 0, %i
  %45 = mul i64 %44, %14
  %46 = add i64 %45, %20
  %47 = add i64 %46, 0
  %48 = getelementptr float, ptr %X, i64 %47
  %49 = getelementptr float, ptr %x, i64 0
  %50 = load <32 x float>, ptr %48, align 4
  store <32 x float> %50, ptr %49, align 4
  %51 = add i64 %46, 32
  %52 = getelementptr float, ptr %X, i64 %51
  %53 = getelementptr float, ptr %x, i64 32
  %54 = load <32 x float>, ptr %52, align 4
  store <32 x float> %54, ptr %53, align 4
  %55 = add i64 %i, 1
  br label %in.row

done:                                             ; preds = %in.row
  br label %gl.done

gl.row:                                           ; preds = %done5, %gl.edge
  %i3 = phi i64 [ 0, %gl.edge ], [ %80, %done5 ]
  %56 = icmp slt i64 %i3, 1
  br i1 %56, label %body1, label %done2

body1:                                            ; preds = %gl.row
  %57 = add i64 0, %i3
  %58 = icmp slt i64 %57, 1
  %59 = icmp sge i64 %57, 0
  %60 = and i1 %59, %58
  %61 = and i1 true, %60
  %62 = add i64 0, %57
  %63 = mul i64 %62, %14
  %64 = sub i64 0, %20
  %65 = icmp sgt i64 %64, 0
  %66 = select i1 %65, i64 %64, i64 0
  %67 = sub i64 %14, %20
  %68 = icmp slt i64 %67, 64
  %69 = select i1 %68, i64 %67, i64 64
  %70 = select i1 %61, i64 %69, i64 0
  %71 = sub i64 %70, %66
  br label %gl.col

done2:                                            ; preds = %gl.row
  br label %gl.done

gl.col:                                           ; preds = %body4, %body1
  %i6 = phi i64 [ 0, %body1 ], [ %79, %body4 ]
  %72 = icmp slt i64 %i6, %71
  br i1 %72, label %body4, label %done5

body4:                                            ; preds = %gl.col
  %73 = add i64 %i6, %66
  %74 = add i64 %20, %73
  %75 = add i64 %63, %74
  %76 = getelementptr float, ptr %X, i64 %75
  %77 = load float, ptr %76, align 4
  %78 = getelementptr float, ptr %x, i64 %73
  store float %77, ptr %78, align 4
  %79 = add i64 %i6, 1
  br label %gl.col

done5:                                            ; preds = %gl.col
  %80 = add i64 %i3, 1
  br label %gl.row

gl.inside7:                                       ; preds = %gl.done
  br label %in.row10

gl.edge8:                                         ; preds = %gl.done
  call void @llvm.memset.p0.i64(ptr align 64 %y, i8 0, i64 256, i1 false)
  br label %gl.row14

gl.done9:                                         ; preds = %done16, %done12
  %81 = getelementptr i64, ptr %1, i64 0
  %82 = load i64, ptr %81, align 8
  %83 = mul i64 1, %82
  %84 = add i64 0, %83
  %85 = sext i32 %2 to i64
  %86 = icmp slt i64 %85, 1099511627776
  %87 = select i1 %86, i64 %85, i64 1099511627776
  %88 = icmp sgt i64 %87, -1099511627776
  %89 = select i1 %88, i64 %87, i64 -1099511627776
  %90 = mul i64 %89, 64
  br label %st.row

in.row10:                                         ; preds = %body11, %gl.inside7
  %i13 = phi i64 [ 0, %gl.inside7 ], [ %103, %body11 ]
  %91 = icmp slt i64 %i13, 1
  br i1 %91, label %body11, label %done12

body11:                                           ; preds = %in.row10
  %92 = add i64 0, %i13
  %93 = mul i64 %92, %30
  %94 = add i64 %93, %36
  %95 = add i64 %94, 0
  %96 = getelementptr float, ptr %Y, i64 %95
  %97 = getelementptr float, ptr %y, i64 0
  %98 = load <32 x float>, ptr %96, align 4
  store <32 x float> %98, ptr %97, align 4
  %99 = add i64 %94, 32
  %100 = getelementptr float, ptr %Y, i64 %99
  %101 = getelementptr float, ptr %y, i64 32
  %102 = load <32 x float>, ptr %100, align 4
  store <32 x float> %102, ptr %101, align 4
  %103 = add i64 %i13, 1
  br label %in.row10

done12:                                           ; preds = %in.row10
  br label %gl.done9

gl.row14:                                         ; preds = %done20, %gl.edge8
  %i17 = phi i64 [ 0, %gl.edge8 ], [ %128, %done20 ]
  %104 = icmp slt i64 %i17, 1
  br i1 %104, label %body15, label %done16

body15:                                           ; preds = %gl.row14
  %105 = add i64 0, %i17
  %106 = icmp slt i64 %105, 1
  %107 = icmp sge i64 %105, 0
  %108 = and i1 %107, %106
  %109 = and i1 true, %108
  %110 = add i64 0, %105
  %111 = mul i64 %110, %30
  %112 = sub i64 0, %36
  %113 = icmp sgt i64 %112, 0
  %114 = select i1 %113, i64 %112, i64 0
  %115 = sub i64 %30, %36
  %116 = icmp slt i64 %115, 64
  %117 = select i1 %116, i64 %115, i64 64
  %118 = select i1 %109, i64 %117, i64 0
  %119 = sub i64 %118, %114
  br label %gl.col18

done16:                                           ; preds = %gl.row14
  br label %gl.done9

gl.col18:                                         ; preds = %body19, %body15
  %i21 = phi i64 [ 0, %body15 ], [ %127, %body19 ]
  %120 = icmp slt i64 %i21, %119
  br i1 %120, label %body19, label %done20

body19:                                           ; preds = %gl.col18
  %121 = add i64 %i21, %114
  %122 = add i64 %36, %121
  %123 = add i64 %111, %122
  %124 = getelementptr float, ptr %Y, i64 %123
  %125 = load float, ptr %124, align 4
  %126 = getelementptr float, ptr %y, i64 %121
  store float %125, ptr %126, align 4
  %127 = add i64 %i21, 1
  br label %gl.col18

done20:                                           ; preds = %gl.col18
  %128 = add i64 %i17, 1
  br label %gl.row14

st.row:                                           ; preds = %done26, %gl.done9
  %i24 = phi i64 [ 0, %gl.done9 ], [ %157, %done26 ]
  %129 = icmp slt i64 %i24, 1
  br i1 %129, label %body22, label %done23

body22:                                           ; preds = %st.row
  %130 = add i64 0, %i24
  %131 = icmp slt i64 %130, 1
  %132 = icmp sge i64 %130, 0
  %133 = and i1 %132, %131
  %134 = and i1 true, %133
  %135 = add i64 0, %130
  %136 = mul i64 %135, %84
  %137 = sub i64 0, %90
  %138 = icmp sgt i64 %137, 0
  %139 = select i1 %138, i64 %137, i64 0
  %140 = sub i64 %84, %90
  %141 = icmp slt i64 %140, 64
  %142 = select i1 %141, i64 %140, i64 64
  %143 = select i1 %134, i64 %142, i64 0
  %144 = sub i64 %143, %139
  br label %st.col

done23:                                           ; preds = %st.row
  ret void

st.col:                                           ; preds = %body25, %body22
  %i27 = phi i64 [ 0, %body22 ], [ %156, %body25 ]
  %145 = icmp slt i64 %i27, %144
  br i1 %145, label %body25, label %done26

body25:                                           ; preds = %st.col
  %146 = add i64 %i27, %139
  %147 = getelementptr float, ptr %y, i64 %146
  %148 = load float, ptr %147, align 4
  %149 = getelementptr float, ptr %x, i64 %146
  %150 = load float, ptr %149, align 4
  %151 = fmul float %150, %8
  %152 = fadd float %151, %148
  %153 = add i64 %90, %146
  %154 = add i64 %136, %153
  %155 = getelementptr float, ptr %Y, i64 %154
  store float %152, ptr %155, align 4
  %156 = add i64 %i27, 1
  br label %st.col

done26:                                           ; preds = %st.col
  %157 = add i64 %i24, 1
  br label %st.row
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #0

attributes #0 = { nocallback nofree nounwind willreturn memory(argmem: write) }
