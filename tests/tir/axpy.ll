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

define void @axpy__block(ptr noalias %0, ptr noalias %1, i32 %2, i32 %3, i32 %4) {
entry:
  %tile = alloca [64 x float], align 64
  %tile4 = alloca [64 x float], align 64
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
  %43 = and i1 %26, %42
  %44 = getelementptr i64, ptr %1, i64 0
  %45 = load i64, ptr %44, align 8
  %46 = mul i64 1, %45
  %47 = add i64 0, %46
  %48 = sext i32 %2 to i64
  %49 = icmp slt i64 %48, 1099511627776
  %50 = select i1 %49, i64 %48, i64 1099511627776
  %51 = icmp sgt i64 %50, -1099511627776
  %52 = select i1 %51, i64 %50, i64 -1099511627776
  %53 = mul i64 %52, 64
  %54 = icmp sge i64 %53, 0
  %55 = and i1 true, %54
  %56 = add i64 %53, 64
  %57 = and i1 %55, true
  %58 = icmp sle i64 %56, %47
  %59 = and i1 %57, %58
  %60 = and i1 %43, %59
  br i1 %60, label %fuse.inside, label %fuse.edge

fuse.inside:                                      ; preds = %start
  %61 = mul i64 0, %30
  %62 = add i64 %61, %36
  %63 = getelementptr float, ptr %X, i64 %62
  %64 = mul i64 0, %47
  %65 = add i64 %64, %53
  %66 = getelementptr float, ptr %Y, i64 %65
  %67 = getelementptr float, ptr %66, i64 0
  %68 = load <16 x float>, ptr %67, align 4
  %69 = insertelement <16 x float> poison, float %8, i32 0
  %70 = shufflevector <16 x float> %69, <16 x float> poison, <16 x i32> zeroinitializer
  %71 = getelementptr float, ptr %63, i64 0
  %72 = load <16 x float>, ptr %71, align 4
  %73 = fmul <16 x float> %72, %70
  %74 = fadd <16 x float> %73, %68
  %75 = mul i64 0, %14
  %76 = add i64 %20, 0
  %77 = add i64 %75, %76
  %78 = getelementptr float, ptr %Y, i64 %77
  store <16 x float> %74, ptr %78, align 4
  %79 = getelementptr float, ptr %66, i64 16
  %80 = load <16 x float>, ptr %79, align 4
  %81 = insertelement <16 x float> poison, float %8, i32 0
  %82 = shufflevector <16 x float> %81, <16 x float> poison, <16 x i32> zeroinitializer
  %83 = getelementptr float, ptr %63, i64 16
  %84 = load <16 x float>, ptr %83, align 4
  %85 = fmul <16 x float> %84, %82
  %86 = fadd <16 x float> %85, %80
  %87 = mul i64 0, %14
  %88 = add i64 %20, 16
  %89 = add i64 %87, %88
  %90 = getelementptr float, ptr %Y, i64 %89
  store <16 x float> %86, ptr %90, align 4
  %91 = getelementptr float, ptr %66, i64 32
  %92 = load <16 x float>, ptr %91, align 4
  %93 = insertelement <16 x float> poison, float %8, i32 0
  %94 = shufflevector <16 x float> %93, <16 x float> poison, <16 x i32> zeroinitializer
  %95 = getelementptr float, ptr %63, i64 32
  %96 = load <16 x float>, ptr %95, align 4
  %97 = fmul <16 x float> %96, %94
  %98 = fadd <16 x float> %97, %92
  %99 = mul i64 0, %14
  %100 = add i64 %20, 32
  %101 = add i64 %99, %100
  %102 = getelementptr float, ptr %Y, i64 %101
  store <16 x float> %98, ptr %102, align 4
  %103 = getelementptr float, ptr %66, i64 48
  %104 = load <16 x float>, ptr %103, align 4
  %105 = insertelement <16 x float> poison, float %8, i32 0
  %106 = shufflevector <16 x float> %105, <16 x float> poison, <16 x i32> zeroinitializer
  %107 = getelementptr float, ptr %63, i64 48
  %108 = load <16 x float>, ptr %107, align 4
  %109 = fmul <16 x float> %108, %106
  %110 = fadd <16 x float> %109, %104
  %111 = mul i64 0, %14
  %112 = add i64 %20, 48
  %113 = add i64 %111, %112
  %114 = getelementptr float, ptr %Y, i64 %113
  store <16 x float> %110, ptr %114, align 4
  br label %fuse.done

fuse.edge:                                        ; preds = %start
  br label %gl.row

fuse.done:                                        ; preds = %done14, %fuse.inside
  ret void

gl.row:                                           ; preds = %done2, %fuse.edge
  %i = phi i64 [ 0, %fuse.edge ], [ %146, %done2 ]
  %115 = icmp slt i64 %i, 1
  br i1 %115, label %body, label %done

body:                                             ; preds = %gl.row
  %116 = add i64 0, %i
  %117 = icmp ult i64 %116, 1
  %118 = and i1 true, %117
  %119 = add i64 0, %116
  %120 = mul i64 %119, %30
  %121 = sub i64 0, %36
  %122 = icmp sgt i64 %121, 0
  %123 = select i1 %122, i64 %121, i64 0
  %124 = sub i64 %30, %36
  %125 = icmp slt i64 %124, 64
  %126 = select i1 %125, i64 %124, i64 64
  %127 = select i1 %118, i64 %126, i64 0
  %128 = add i64 %120, %36
  br label %gl.chunk

done:                                             ; preds = %gl.row
  br label %gl.row5

gl.chunk:                                         ; preds = %body1, %body
  %i3 = phi i64 [ 0, %body ], [ %145, %body1 ]
  %129 = icmp slt i64 %i3, 4
  br i1 %129, label %body1, label %done2

body1:                                            ; preds = %gl.chunk
  %130 = mul i64 %i3, 16
  %131 = insertelement <16 x i64> undef, i64 %130, i32 0
  %132 = shufflevector <16 x i64> %131, <16 x i64> undef, <16 x i32> zeroinitializer
  %133 = insertelement <16 x i64> undef, i64 %123, i32 0
  %134 = shufflevector <16 x i64> %133, <16 x i64> undef, <16 x i32> zeroinitializer
  %135 = insertelement <16 x i64> undef, i64 %127, i32 0
  %136 = shufflevector <16 x i64> %135, <16 x i64> undef, <16 x i32> zeroinitializer
  %137 = add <16 x i64> %132, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %138 = icmp slt <16 x i64> %137, %136
  %139 = icmp sge <16 x i64> %137, %134
  %140 = and <16 x i1> %139, %138
  %141 = add i64 %128, %130
  %142 = getelementptr float, ptr %X, i64 %141
  %143 = getelementptr float, ptr %tile, i64 %130
  %144 = call <16 x float> @llvm.masked.load.v16f32.p0(ptr align 4 %142, <16 x i1> %140, <16 x float> zeroinitializer)
  store <16 x float> %144, ptr %143, align 4
  %145 = add i64 %i3, 1
  br label %gl.chunk

done2:                                            ; preds = %gl.chunk
  %146 = add i64 %i, 1
  br label %gl.row

gl.row5:                                          ; preds = %done11, %done
  %i8 = phi i64 [ 0, %done ], [ %178, %done11 ]
  %147 = icmp slt i64 %i8, 1
  br i1 %147, label %body6, label %done7

body6:                                            ; preds = %gl.row5
  %148 = add i64 0, %i8
  %149 = icmp ult i64 %148, 1
  %150 = and i1 true, %149
  %151 = add i64 0, %148
  %152 = mul i64 %151, %47
  %153 = sub i64 0, %53
  %154 = icmp sgt i64 %153, 0
  %155 = select i1 %154, i64 %153, i64 0
  %156 = sub i64 %47, %53
  %157 = icmp slt i64 %156, 64
  %158 = select i1 %157, i64 %156, i64 64
  %159 = select i1 %150, i64 %158, i64 0
  %160 = add i64 %152, %53
  br label %gl.chunk9

done7:                                            ; preds = %gl.row5
  br label %st.row

gl.chunk9:                                        ; preds = %body10, %body6
  %i12 = phi i64 [ 0, %body6 ], [ %177, %body10 ]
  %161 = icmp slt i64 %i12, 4
  br i1 %161, label %body10, label %done11

body10:                                           ; preds = %gl.chunk9
  %162 = mul i64 %i12, 16
  %163 = insertelement <16 x i64> undef, i64 %162, i32 0
  %164 = shufflevector <16 x i64> %163, <16 x i64> undef, <16 x i32> zeroinitializer
  %165 = insertelement <16 x i64> undef, i64 %155, i32 0
  %166 = shufflevector <16 x i64> %165, <16 x i64> undef, <16 x i32> zeroinitializer
  %167 = insertelement <16 x i64> undef, i64 %159, i32 0
  %168 = shufflevector <16 x i64> %167, <16 x i64> undef, <16 x i32> zeroinitializer
  %169 = add <16 x i64> %164, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %170 = icmp slt <16 x i64> %169, %168
  %171 = icmp sge <16 x i64> %169, %166
  %172 = and <16 x i1> %171, %170
  %173 = add i64 %160, %162
  %174 = getelementptr float, ptr %Y, i64 %173
  %175 = getelementptr float, ptr %tile4, i64 %162
  %176 = call <16 x float> @llvm.masked.load.v16f32.p0(ptr align 4 %174, <16 x i1> %172, <16 x float> zeroinitializer)
  store <16 x float> %176, ptr %175, align 4
  %177 = add i64 %i12, 1
  br label %gl.chunk9

done11:                                           ; preds = %gl.chunk9
  %178 = add i64 %i8, 1
  br label %gl.row5

st.row:                                           ; preds = %done17, %done7
  %i15 = phi i64 [ 0, %done7 ], [ %205, %done17 ]
  %179 = icmp slt i64 %i15, 1
  br i1 %179, label %body13, label %done14

body13:                                           ; preds = %st.row
  %180 = add i64 0, %i15
  %181 = icmp ult i64 %180, 1
  %182 = and i1 true, %181
  %183 = add i64 0, %180
  %184 = mul i64 %183, %14
  %185 = sub i64 0, %20
  %186 = icmp sgt i64 %185, 0
  %187 = select i1 %186, i64 %185, i64 0
  %188 = sub i64 %14, %20
  %189 = icmp slt i64 %188, 64
  %190 = select i1 %189, i64 %188, i64 64
  %191 = select i1 %182, i64 %190, i64 0
  %192 = sub i64 %191, %187
  br label %st.col

done14:                                           ; preds = %st.row
  br label %fuse.done

st.col:                                           ; preds = %body16, %body13
  %i18 = phi i64 [ 0, %body13 ], [ %204, %body16 ]
  %193 = icmp slt i64 %i18, %192
  br i1 %193, label %body16, label %done17

body16:                                           ; preds = %st.col
  %194 = add i64 %i18, %187
  %195 = getelementptr float, ptr %tile4, i64 %194
  %196 = load float, ptr %195, align 4
  %197 = getelementptr float, ptr %tile, i64 %194
  %198 = load float, ptr %197, align 4
  %199 = fmul float %198, %8
  %200 = fadd float %199, %196
  %201 = add i64 %20, %194
  %202 = add i64 %184, %201
  %203 = getelementptr float, ptr %Y, i64 %202
  store float %200, ptr %203, align 4
  %204 = add i64 %i18, 1
  br label %st.col

done17:                                           ; preds = %st.col
  %205 = add i64 %i15, 1
  br label %st.row
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: read)
declare <16 x float> @llvm.masked.load.v16f32.p0(ptr captures(none), <16 x i1>, <16 x float>) #0

attributes #0 = { nocallback nofree nosync nounwind willreturn memory(argmem: read) }
