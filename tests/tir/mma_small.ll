; ModuleID = 'mma_small.tk'
source_filename = "mma_small.tk"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @mm__grid(ptr %0, ptr %1, ptr %2) {
entry:
  br label %start

start:                                            ; preds = %entry
  %3 = getelementptr ptr, ptr %0, i64 0
  %A = load ptr, ptr %3, align 8
  %4 = getelementptr ptr, ptr %0, i64 1
  %B = load ptr, ptr %4, align 8
  %5 = getelementptr ptr, ptr %0, i64 2
  %C = load ptr, ptr %5, align 8
  %6 = getelementptr i64, ptr %1, i64 0
  %7 = load i64, ptr %6, align 8
  %M = trunc i64 %7 to i32
  %8 = getelementptr i64, ptr %1, i64 1
  %9 = load i64, ptr %8, align 8
  %K = trunc i64 %9 to i32
  %10 = getelementptr i64, ptr %1, i64 2
  %11 = load i64, ptr %10, align 8
  %N = trunc i64 %11 to i32
  %12 = sdiv i32 %N, 16
  %13 = srem i32 %N, 16
  %14 = icmp sgt i32 %N, 0
  %15 = icmp ne i32 %13, 0
  %16 = and i1 %15, %14
  %17 = zext i1 %16 to i32
  %18 = add i32 %12, %17
  %19 = select i1 true, i32 %18, i32 0
  %20 = sext i32 %19 to i64
  %21 = getelementptr i64, ptr %2, i64 0
  store i64 %20, ptr %21, align 8
  %22 = sdiv i32 %M, 16
  %23 = srem i32 %M, 16
  %24 = icmp sgt i32 %M, 0
  %25 = icmp ne i32 %23, 0
  %26 = and i1 %25, %24
  %27 = zext i1 %26 to i32
  %28 = add i32 %22, %27
  %29 = select i1 true, i32 %28, i32 0
  %30 = sext i32 %29 to i64
  %31 = getelementptr i64, ptr %2, i64 1
  store i64 %30, ptr %31, align 8
  %32 = getelementptr i64, ptr %2, i64 2
  store i64 1, ptr %32, align 8
  %33 = getelementptr i64, ptr %2, i64 3
  store i64 266765, ptr %33, align 8
  ret void
}

define void @mm__block(ptr %0, ptr %1, i32 %2, i32 %3, i32 %4) {
entry:
  %mk.bbad = alloca i32, i64 1, align 4
  %mk.first = alloca i64, i64 1, align 8
  %mk.all = alloca i32, i64 1, align 4
  %mk.any = alloca i32, i64 1, align 4
  %mk.orv = alloca i32, i64 1, align 4
  %mk.skip = alloca i8, i64 8, align 1
  %acc.at = alloca [1 x ptr], align 64
  %acc.stride = alloca [1 x i64], align 64
  %acc = alloca [256 x float], align 64
  %acc.zero = alloca [1 x i8], align 64
  %a = alloca [256 x i16], align 64
  %b = alloca [256 x i16], align 64
  %mma.b = alloca [256 x float], align 64
  %mma.a = alloca [256 x float], align 64
  br label %start

start:                                            ; preds = %entry
  %5 = getelementptr ptr, ptr %0, i64 0
  %A = load ptr, ptr %5, align 8
  %6 = getelementptr ptr, ptr %0, i64 1
  %B = load ptr, ptr %6, align 8
  %7 = getelementptr ptr, ptr %0, i64 2
  %C = load ptr, ptr %7, align 8
  %8 = getelementptr i64, ptr %1, i64 0
  %9 = load i64, ptr %8, align 8
  %M = trunc i64 %9 to i32
  %10 = getelementptr i64, ptr %1, i64 1
  %11 = load i64, ptr %10, align 8
  %K = trunc i64 %11 to i32
  %12 = getelementptr i64, ptr %1, i64 2
  %13 = load i64, ptr %12, align 8
  %N = trunc i64 %13 to i32
  %14 = getelementptr i64, ptr %1, i64 0
  %15 = load i64, ptr %14, align 8
  %16 = mul i64 1, %15
  %17 = add i64 0, %16
  %18 = getelementptr i64, ptr %1, i64 2
  %19 = load i64, ptr %18, align 8
  %20 = mul i64 1, %19
  %21 = add i64 0, %20
  %22 = sext i32 %3 to i64
  %23 = icmp slt i64 %22, 1099511627776
  %24 = select i1 %23, i64 %22, i64 1099511627776
  %25 = icmp sgt i64 %24, -1099511627776
  %26 = select i1 %25, i64 %24, i64 -1099511627776
  %27 = mul i64 %26, 16
  %28 = sext i32 %2 to i64
  %29 = icmp slt i64 %28, 1099511627776
  %30 = select i1 %29, i64 %28, i64 1099511627776
  %31 = icmp sgt i64 %30, -1099511627776
  %32 = select i1 %31, i64 %30, i64 -1099511627776
  %33 = mul i64 %32, 16
  %34 = mul i64 0, %17
  %35 = add i64 %34, %27
  %36 = mul i64 %35, %21
  %37 = add i64 %36, %33
  %38 = icmp sge i64 %27, 0
  %39 = and i1 true, %38
  %40 = icmp sge i64 %33, 0
  %41 = and i1 %39, %40
  %42 = add i64 %27, 16
  %43 = add i64 %33, 16
  %44 = icmp sle i64 %42, %17
  %45 = and i1 %41, %44
  %46 = icmp sle i64 %43, %21
  %47 = and i1 %45, %46
  %48 = getelementptr i64, ptr %1, i64 0
  %49 = load i64, ptr %48, align 8
  %50 = mul i64 1, %49
  %51 = add i64 0, %50
  %52 = mul i64 4, %51
  %53 = getelementptr i64, ptr %1, i64 2
  %54 = load i64, ptr %53, align 8
  %55 = mul i64 1, %54
  %56 = add i64 0, %55
  %57 = mul i64 %52, %56
  %58 = getelementptr ptr, ptr %0, i64 0
  %59 = load ptr, ptr %58, align 8
  %60 = getelementptr i64, ptr %1, i64 0
  %61 = load i64, ptr %60, align 8
  %62 = mul i64 1, %61
  %63 = add i64 0, %62
  %64 = mul i64 2, %63
  %65 = getelementptr i64, ptr %1, i64 1
  %66 = load i64, ptr %65, align 8
  %67 = mul i64 1, %66
  %68 = add i64 0, %67
  %69 = mul i64 %64, %68
  %70 = ptrtoint ptr %C to i64
  %71 = ptrtoint ptr %59 to i64
  %72 = add i64 %70, %57
  %73 = add i64 %71, %69
  %74 = icmp ule i64 %73, %70
  %75 = icmp ule i64 %72, %71
  %76 = or i1 %75, %74
  %77 = and i1 %47, %76
  %78 = getelementptr ptr, ptr %0, i64 1
  %79 = load ptr, ptr %78, align 8
  %80 = getelementptr i64, ptr %1, i64 1
  %81 = load i64, ptr %80, align 8
  %82 = mul i64 1, %81
  %83 = add i64 0, %82
  %84 = mul i64 2, %83
  %85 = getelementptr i64, ptr %1, i64 2
  %86 = load i64, ptr %85, align 8
  %87 = mul i64 1, %86
  %88 = add i64 0, %87
  %89 = mul i64 %84, %88
  %90 = ptrtoint ptr %C to i64
  %91 = ptrtoint ptr %79 to i64
  %92 = add i64 %90, %57
  %93 = add i64 %91, %89
  %94 = icmp ule i64 %93, %90
  %95 = icmp ule i64 %92, %91
  %96 = or i1 %95, %94
  %97 = and i1 %77, %96
  %acc.inc = getelementptr float, ptr %C, i64 %37
  %98 = select i1 %97, ptr %acc.inc, ptr %acc
  %99 = getelementptr i64, ptr %1, i64 2
  %100 = load i64, ptr %99, align 8
  %101 = mul i64 1, %100
  %102 = add i64 0, %101
  %103 = select i1 %97, i64 %102, i64 16
  store ptr %98, ptr %acc.at, align 8
  store i64 %103, ptr %acc.stride, align 8
  store i8 1, ptr %acc.zero, align 1
  %104 = getelementptr i64, ptr %1, i64 0
  %105 = load i64, ptr %104, align 8
  %106 = mul i64 1, %105
  %107 = add i64 0, %106
  %108 = getelementptr i64, ptr %1, i64 1
  %109 = load i64, ptr %108, align 8
  %110 = mul i64 1, %109
  %111 = add i64 0, %110
  %112 = sext i32 %3 to i64
  %113 = icmp slt i64 %112, 1099511627776
  %114 = select i1 %113, i64 %112, i64 1099511627776
  %115 = icmp sgt i64 %114, -1099511627776
  %116 = select i1 %115, i64 %114, i64 -1099511627776
  %117 = mul i64 %116, 16
  %118 = icmp sge i64 %117, 0
  %119 = and i1 true, %118
  %120 = and i1 %119, true
  %121 = add i64 %117, 16
  %122 = icmp sle i64 %121, %107
  %123 = and i1 %120, %122
  %124 = icmp sle i64 16, %111
  %125 = and i1 %123, %124
  br i1 %125, label %gl.inside, label %gl.edge

gl.inside:                                        ; preds = %start
  %126 = mul i64 0, %107
  %127 = add i64 %126, %117
  br label %in.row

gl.edge:                                          ; preds = %start
  call void @llvm.memset.p0.i64(ptr align 64 %a, i8 0, i64 512, i1 false)
  br label %gl.row

gl.done:                                          ; preds = %done2, %done
  %128 = getelementptr i64, ptr %1, i64 1
  %129 = load i64, ptr %128, align 8
  %130 = mul i64 1, %129
  %131 = add i64 0, %130
  %132 = getelementptr i64, ptr %1, i64 2
  %133 = load i64, ptr %132, align 8
  %134 = mul i64 1, %133
  %135 = add i64 0, %134
  %136 = sext i32 %2 to i64
  %137 = icmp slt i64 %136, 1099511627776
  %138 = select i1 %137, i64 %136, i64 1099511627776
  %139 = icmp sgt i64 %138, -1099511627776
  %140 = select i1 %139, i64 %138, i64 -1099511627776
  %141 = mul i64 %140, 16
  %142 = icmp sge i64 %141, 0
  %143 = and i1 true, %142
  %144 = add i64 %141, 16
  %145 = icmp sle i64 16, %131
  %146 = and i1 %143, %145
  %147 = icmp sle i64 %144, %135
  %148 = and i1 %146, %147
  br i1 %148, label %gl.inside7, label %gl.edge8

in.row:                                           ; preds = %body, %gl.inside
  %i = phi i64 [ 0, %gl.inside ], [ %159, %body ]
  %149 = icmp slt i64 %i, 16
  br i1 %149, label %body, label %done

body:                                             ; preds = %in.row
  %150 = add i64 %127, %i
  %151 = mul i64 %150, %111
  %152 = add i64 %151, 0
  %153 = mul i64 %i, 16
  %154 = add i64 %153, 0
  %155 = add i64 %152, 0
  %156 = getelementptr i16, ptr %A, i64 %155
  %157 = getelementptr i16, ptr %a, i64 %154
  %158 = load <16 x i16>, ptr %156, align 2
  store <16 x i16> %158, ptr %157, align 2
  %159 = add i64 %i, 1
  br label %in.row

done:                                             ; preds = %in.row
  br label %gl.done

gl.row:                                           ; preds = %done5, %gl.edge
  %i3 = phi i64 [ 0, %gl.edge ], [ %184, %done5 ]
  %160 = icmp slt i64 %i3, 16
  br i1 %160, label %body1, label %done2

body1:                                            ; preds = %gl.row
  %161 = add i64 %117, %i3
  %162 = icmp slt i64 %161, %107
  %163 = icmp sge i64 %161, 0
  %164 = and i1 %163, %162
  %165 = and i1 true, %164
  %166 = mul i64 0, %107
  %167 = add i64 %166, %161
  %168 = mul i64 %167, %111
  %169 = sub i64 %111, 0
  %170 = icmp slt i64 %169, 16
  %171 = select i1 %170, i64 %169, i64 16
  %172 = select i1 %165, i64 %171, i64 0
  %173 = sub i64 %172, 0
  br label %gl.col

done2:                                            ; preds = %gl.row
  br label %gl.done

gl.col:                                           ; preds = %body4, %body1
  %i6 = phi i64 [ 0, %body1 ], [ %183, %body4 ]
  %174 = icmp slt i64 %i6, %173
  br i1 %174, label %body4, label %done5

body4:                                            ; preds = %gl.col
  %175 = add i64 %i6, 0
  %176 = mul i64 %i3, 16
  %177 = add i64 %176, %175
  %178 = add i64 0, %175
  %179 = add i64 %168, %178
  %180 = getelementptr i16, ptr %A, i64 %179
  %181 = load i16, ptr %180, align 2
  %182 = getelementptr i16, ptr %a, i64 %177
  store i16 %181, ptr %182, align 2
  %183 = add i64 %i6, 1
  br label %gl.col

done5:                                            ; preds = %gl.col
  %184 = add i64 %i3, 1
  br label %gl.row

gl.inside7:                                       ; preds = %gl.done
  %185 = mul i64 0, %131
  %186 = add i64 %185, 0
  br label %in.row10

gl.edge8:                                         ; preds = %gl.done
  call void @llvm.memset.p0.i64(ptr align 64 %b, i8 0, i64 512, i1 false)
  br label %gl.row17

gl.done9:                                         ; preds = %done19, %done12
  %187 = load i64, ptr %acc.stride, align 8
  %188 = load ptr, ptr %acc.at, align 8
  %189 = load i8, ptr %acc.zero, align 1
  %190 = icmp ne i8 %189, 0
  br label %pack.a

in.row10:                                         ; preds = %done15, %gl.inside7
  %i13 = phi i64 [ 0, %gl.inside7 ], [ %203, %done15 ]
  %191 = icmp slt i64 %i13, 16
  br i1 %191, label %body11, label %done12

body11:                                           ; preds = %in.row10
  %192 = add i64 %186, %i13
  %193 = mul i64 %192, %135
  %194 = add i64 %193, %141
  br label %in.col

done12:                                           ; preds = %in.row10
  br label %gl.done9

in.col:                                           ; preds = %body14, %body11
  %i16 = phi i64 [ 0, %body11 ], [ %202, %body14 ]
  %195 = icmp slt i64 %i16, 16
  br i1 %195, label %body14, label %done15

body14:                                           ; preds = %in.col
  %196 = mul i64 %i16, 16
  %197 = add i64 %196, %i13
  %198 = add i64 %194, %i16
  %199 = getelementptr i16, ptr %B, i64 %198
  %200 = load i16, ptr %199, align 2
  %201 = getelementptr i16, ptr %b, i64 %197
  store i16 %200, ptr %201, align 2
  %202 = add i64 %i16, 1
  br label %in.col

done15:                                           ; preds = %in.col
  %203 = add i64 %i13, 1
  br label %in.row10

gl.row17:                                         ; preds = %done23, %gl.edge8
  %i20 = phi i64 [ 0, %gl.edge8 ], [ %231, %done23 ]
  %204 = icmp slt i64 %i20, 16
  br i1 %204, label %body18, label %done19

body18:                                           ; preds = %gl.row17
  %205 = add i64 0, %i20
  %206 = icmp slt i64 %205, %131
  %207 = icmp sge i64 %205, 0
  %208 = and i1 %207, %206
  %209 = and i1 true, %208
  %210 = mul i64 0, %131
  %211 = add i64 %210, %205
  %212 = mul i64 %211, %135
  %213 = sub i64 0, %141
  %214 = icmp sgt i64 %213, 0
  %215 = select i1 %214, i64 %213, i64 0
  %216 = sub i64 %135, %141
  %217 = icmp slt i64 %216, 16
  %218 = select i1 %217, i64 %216, i64 16
  %219 = select i1 %209, i64 %218, i64 0
  %220 = sub i64 %219, %215
  br label %gl.col21

done19:                                           ; preds = %gl.row17
  br label %gl.done9

gl.col21:                                         ; preds = %body22, %body18
  %i24 = phi i64 [ 0, %body18 ], [ %230, %body22 ]
  %221 = icmp slt i64 %i24, %220
  br i1 %221, label %body22, label %done23

body22:                                           ; preds = %gl.col21
  %222 = add i64 %i24, %215
  %223 = mul i64 %222, 16
  %224 = add i64 %223, %i20
  %225 = add i64 %141, %222
  %226 = add i64 %212, %225
  %227 = getelementptr i16, ptr %B, i64 %226
  %228 = load i16, ptr %227, align 2
  %229 = getelementptr i16, ptr %b, i64 %224
  store i16 %228, ptr %229, align 2
  %230 = add i64 %i24, 1
  br label %gl.col21

done23:                                           ; preds = %gl.col21
  %231 = add i64 %i20, 1
  br label %gl.row17

pack.a:                                           ; preds = %done29, %gl.done9
  %i27 = phi i64 [ 0, %gl.done9 ], [ %245, %done29 ]
  %232 = icmp slt i64 %i27, 16
  br i1 %232, label %body25, label %done26

body25:                                           ; preds = %pack.a
  br label %pack.ak

done26:                                           ; preds = %pack.a
  br label %pack.b

pack.ak:                                          ; preds = %body28, %body25
  %i30 = phi i64 [ 0, %body25 ], [ %244, %body28 ]
  %233 = icmp slt i64 %i30, 16
  br i1 %233, label %body28, label %done29

body28:                                           ; preds = %pack.ak
  %234 = mul i64 %i27, 16
  %235 = add i64 %234, %i30
  %236 = mul i64 %i27, 16
  %237 = add i64 %236, %i30
  %238 = getelementptr i16, ptr %a, i64 %235
  %239 = load i16, ptr %238, align 2
  %240 = zext i16 %239 to i32
  %241 = shl i32 %240, 16
  %242 = bitcast i32 %241 to float
  %243 = getelementptr float, ptr %mma.a, i64 %237
  store float %242, ptr %243, align 4
  %244 = add i64 %i30, 1
  br label %pack.ak

done29:                                           ; preds = %pack.ak
  %245 = add i64 %i27, 1
  br label %pack.a

pack.b:                                           ; preds = %done35, %done26
  %i33 = phi i64 [ 0, %done26 ], [ %267, %done35 ]
  %246 = icmp slt i64 %i33, 16
  br i1 %246, label %body31, label %done32

body31:                                           ; preds = %pack.b
  br label %pack.bn

done32:                                           ; preds = %pack.b
  store i32 0, ptr %mk.any, align 4
  store i32 1, ptr %mk.all, align 4
  store i64 16, ptr %mk.first, align 8
  br label %mk.zrows

pack.bn:                                          ; preds = %body34, %body31
  %i36 = phi i64 [ 0, %body31 ], [ %266, %body34 ]
  %247 = icmp slt i64 %i36, 16
  br i1 %247, label %body34, label %done35

body34:                                           ; preds = %pack.bn
  %248 = mul i64 %i36, 16
  %249 = add i64 %248, %i33
  %250 = udiv i64 %i36, 32
  %251 = urem i64 %i36, 32
  %252 = mul i64 %250, 32
  %253 = sub i64 16, %252
  %254 = icmp slt i64 %253, 32
  %255 = select i1 %254, i64 %253, i64 32
  %256 = mul i64 %250, 512
  %257 = mul i64 %i33, %255
  %258 = add i64 %257, %251
  %259 = add i64 %256, %258
  %260 = getelementptr i16, ptr %b, i64 %249
  %261 = load i16, ptr %260, align 2
  %262 = zext i16 %261 to i32
  %263 = shl i32 %262, 16
  %264 = bitcast i32 %263 to float
  %265 = getelementptr float, ptr %mma.b, i64 %259
  store float %264, ptr %265, align 4
  %266 = add i64 %i36, 1
  br label %pack.bn

done35:                                           ; preds = %pack.bn
  %267 = add i64 %i33, 1
  br label %pack.b

mk.zrows:                                         ; preds = %mk.done38, %done32
  %268 = phi i64 [ 0, %done32 ], [ %301, %mk.done38 ]
  %269 = icmp slt i64 %268, 8
  br i1 %269, label %mk.body, label %mk.done

mk.body:                                          ; preds = %mk.zrows
  %270 = sub i64 7, %268
  %271 = mul i64 %270, 2
  store i32 0, ptr %mk.orv, align 4
  %272 = mul i64 %271, 16
  %273 = add i64 %272, 0
  %274 = getelementptr float, ptr %mma.a, i64 %273
  br label %mk.or

mk.done:                                          ; preds = %mk.zrows
  %275 = load i32, ptr %mk.any, align 4
  %276 = icmp ne i32 %275, 0
  %277 = load i32, ptr %mk.all, align 4
  %278 = icmp ne i32 %277, 0
  %279 = load i64, ptr %mk.first, align 8
  %280 = and i1 %190, %276
  br i1 %280, label %mk.zskip, label %mk.zskipdone

mk.or:                                            ; preds = %mk.body37, %mk.body
  %281 = phi i64 [ 0, %mk.body ], [ %288, %mk.body37 ]
  %282 = icmp slt i64 %281, 32
  br i1 %282, label %mk.body37, label %mk.done38

mk.body37:                                        ; preds = %mk.or
  %283 = getelementptr i32, ptr %274, i64 %281
  %284 = load i32, ptr %283, align 4
  %285 = and i32 %284, 2147483647
  %286 = load i32, ptr %mk.orv, align 4
  %287 = or i32 %286, %285
  store i32 %287, ptr %mk.orv, align 4
  %288 = add i64 %281, 1
  br label %mk.or

mk.done38:                                        ; preds = %mk.or
  %289 = load i32, ptr %mk.orv, align 4
  %290 = icmp eq i32 %289, 0
  %291 = zext i1 %290 to i32
  %292 = getelementptr i8, ptr %mk.skip, i64 %270
  %293 = trunc i32 %291 to i8
  store i8 %293, ptr %292, align 1
  %294 = load i32, ptr %mk.any, align 4
  %295 = or i32 %294, %291
  store i32 %295, ptr %mk.any, align 4
  %296 = load i32, ptr %mk.all, align 4
  %297 = and i32 %296, %291
  store i32 %297, ptr %mk.all, align 4
  %298 = load i64, ptr %mk.first, align 8
  %299 = mul i64 %270, 2
  %300 = select i1 %290, i64 %298, i64 %299
  store i64 %300, ptr %mk.first, align 8
  %301 = add i64 %268, 1
  br label %mk.zrows

mk.zskip:                                         ; preds = %mk.done
  br label %mk.zblk

mk.zskipdone:                                     ; preds = %mk.done40, %mk.done
  store i32 0, ptr %mk.bbad, align 4
  %302 = select i1 %276, i64 %279, i64 -1
  br label %mk.pass

mk.zblk:                                          ; preds = %mk.znext, %mk.zskip
  %303 = phi i64 [ 0, %mk.zskip ], [ %308, %mk.znext ]
  %304 = icmp slt i64 %303, 8
  br i1 %304, label %mk.body39, label %mk.done40

mk.body39:                                        ; preds = %mk.zblk
  %305 = getelementptr i8, ptr %mk.skip, i64 %303
  %306 = load i8, ptr %305, align 1
  %307 = icmp ne i8 %306, 0
  br i1 %307, label %mk.zfill, label %mk.znext

mk.done40:                                        ; preds = %mk.zblk
  br label %mk.zskipdone

mk.zfill:                                         ; preds = %mk.body39
  br label %mk.zrow

mk.znext:                                         ; preds = %mk.done42, %mk.body39
  %308 = add i64 %303, 1
  br label %mk.zblk

mk.zrow:                                          ; preds = %mk.done44, %mk.zfill
  %309 = phi i64 [ 0, %mk.zfill ], [ %319, %mk.done44 ]
  %310 = icmp slt i64 %309, 2
  br i1 %310, label %mk.body41, label %mk.done42

mk.body41:                                        ; preds = %mk.zrow
  %311 = mul i64 %303, 2
  %312 = add i64 %311, %309
  %313 = mul i64 %312, %187
  br label %mk.zcol

mk.done42:                                        ; preds = %mk.zrow
  br label %mk.znext

mk.zcol:                                          ; preds = %mk.body43, %mk.body41
  %314 = phi i64 [ 0, %mk.body41 ], [ %318, %mk.body43 ]
  %315 = icmp slt i64 %314, 16
  br i1 %315, label %mk.body43, label %mk.done44

mk.body43:                                        ; preds = %mk.zcol
  %316 = add i64 %313, %314
  %317 = getelementptr float, ptr %188, i64 %316
  store <8 x float> zeroinitializer, ptr %317, align 4
  %318 = add i64 %314, 8
  br label %mk.zcol

mk.done44:                                        ; preds = %mk.zcol
  %319 = add i64 %309, 1
  br label %mk.zrow

mk.pass:                                          ; preds = %mk.passdone, %mk.zskipdone
  %320 = phi i64 [ 0, %mk.zskipdone ], [ %333, %mk.passdone ]
  %321 = icmp slt i64 %320, 2
  br i1 %321, label %mk.body45, label %mk.done46

mk.body45:                                        ; preds = %mk.pass
  %322 = trunc i64 %320 to i8
  %323 = load i32, ptr %mk.bbad, align 4
  %324 = icmp ne i32 %323, 0
  %325 = or i1 %278, %324
  %326 = and i1 %276, %325
  %327 = icmp eq i64 %320, 0
  %328 = or i1 %327, %326
  br i1 %328, label %mk.passrun, label %mk.passdone

mk.done46:                                        ; preds = %mk.pass
  store i8 0, ptr %acc.zero, align 1
  %329 = load i8, ptr %acc.zero, align 1
  %330 = icmp ne i8 %329, 0
  br i1 %330, label %acc.fill, label %acc.settled

mk.passrun:                                       ; preds = %mk.body45
  %331 = icmp eq i64 %320, 0
  %332 = select i1 %331, i64 %302, i64 -1
  br label %mk.i

mk.passdone:                                      ; preds = %mk.done64, %mk.body45
  %333 = add i64 %320, 1
  br label %mk.pass

mk.i:                                             ; preds = %mk.next, %mk.passrun
  %334 = phi i64 [ 0, %mk.passrun ], [ %341, %mk.next ]
  %335 = icmp slt i64 %334, 16
  br i1 %335, label %mk.body47, label %mk.done48

mk.body47:                                        ; preds = %mk.i
  %336 = sdiv i64 %334, 2
  %337 = getelementptr i8, ptr %mk.skip, i64 %336
  %338 = load i8, ptr %337, align 1
  %339 = icmp eq i8 %338, %322
  br i1 %339, label %mk.work, label %mk.next

mk.done48:                                        ; preds = %mk.i
  br label %mk.i62

mk.work:                                          ; preds = %mk.body47
  %340 = icmp eq i64 %334, %332
  br i1 %340, label %mk.checking, label %mk.plain

mk.next:                                          ; preds = %mk.blockdone, %mk.body47
  %341 = add i64 %334, 2
  br label %mk.i

mk.checking:                                      ; preds = %mk.work
  br i1 %190, label %mk.accready, label %mk.accload

mk.plain:                                         ; preds = %mk.work
  br i1 %190, label %mk.accready53, label %mk.accload52

mk.blockdone:                                     ; preds = %mk.kdone58, %mk.kdone
  br label %mk.next

mk.accload:                                       ; preds = %mk.checking
  %342 = add i64 %334, 0
  %343 = mul i64 %342, %187
  %344 = add i64 %343, 0
  %345 = getelementptr float, ptr %188, i64 %344
  %346 = load <8 x float>, ptr %345, align 4
  %347 = add i64 %334, 1
  %348 = mul i64 %347, %187
  %349 = add i64 %348, 0
  %350 = getelementptr float, ptr %188, i64 %349
  %351 = load <8 x float>, ptr %350, align 4
  br label %mk.accready

mk.accready:                                      ; preds = %mk.accload, %mk.checking
  %acc0 = phi <8 x float> [ zeroinitializer, %mk.checking ], [ %346, %mk.accload ]
  %acc049 = phi <8 x float> [ zeroinitializer, %mk.checking ], [ %351, %mk.accload ]
  br label %mk.k

mk.k:                                             ; preds = %mk.kbody, %mk.accready
  %k = phi i64 [ 0, %mk.accready ], [ %378, %mk.kbody ]
  %acc50 = phi <8 x float> [ %acc0, %mk.accready ], [ %369, %mk.kbody ]
  %acc51 = phi <8 x float> [ %acc049, %mk.accready ], [ %377, %mk.kbody ]
  %nonfinite = phi <8 x i1> [ zeroinitializer, %mk.accready ], [ %361, %mk.kbody ]
  %352 = icmp slt i64 %k, 16
  br i1 %352, label %mk.kbody, label %mk.kdone

mk.kbody:                                         ; preds = %mk.k
  %353 = mul i64 %k, 16
  %354 = add i64 %353, 0
  %355 = add i64 0, %354
  %356 = getelementptr float, ptr %mma.b, i64 %355
  %357 = load <8 x float>, ptr %356, align 4
  %358 = bitcast <8 x float> %357 to <8 x i32>
  %359 = and <8 x i32> %358, splat (i32 2139095040)
  %360 = icmp eq <8 x i32> %359, splat (i32 2139095040)
  %361 = or <8 x i1> %nonfinite, %360
  %362 = add i64 %334, 0
  %363 = mul i64 %362, 16
  %364 = add i64 %363, %k
  %365 = getelementptr float, ptr %mma.a, i64 %364
  %366 = load float, ptr %365, align 4
  %367 = insertelement <8 x float> poison, float %366, i32 0
  %368 = shufflevector <8 x float> %367, <8 x float> poison, <8 x i32> zeroinitializer
  %369 = call <8 x float> @llvm.fma.v8f32(<8 x float> %368, <8 x float> %357, <8 x float> %acc50)
  %370 = add i64 %334, 1
  %371 = mul i64 %370, 16
  %372 = add i64 %371, %k
  %373 = getelementptr float, ptr %mma.a, i64 %372
  %374 = load float, ptr %373, align 4
  %375 = insertelement <8 x float> poison, float %374, i32 0
  %376 = shufflevector <8 x float> %375, <8 x float> poison, <8 x i32> zeroinitializer
  %377 = call <8 x float> @llvm.fma.v8f32(<8 x float> %376, <8 x float> %357, <8 x float> %acc51)
  %378 = add i64 %k, 1
  br label %mk.k

mk.kdone:                                         ; preds = %mk.k
  %379 = call i1 @llvm.vector.reduce.or.v8i1(<8 x i1> %nonfinite)
  %380 = load i32, ptr %mk.bbad, align 4
  %381 = zext i1 %379 to i32
  %382 = or i32 %380, %381
  store i32 %382, ptr %mk.bbad, align 4
  %383 = add i64 %334, 0
  %384 = mul i64 %383, %187
  %385 = add i64 %384, 0
  %386 = getelementptr float, ptr %188, i64 %385
  store <8 x float> %acc50, ptr %386, align 4
  %387 = add i64 %334, 1
  %388 = mul i64 %387, %187
  %389 = add i64 %388, 0
  %390 = getelementptr float, ptr %188, i64 %389
  store <8 x float> %acc51, ptr %390, align 4
  br label %mk.blockdone

mk.accload52:                                     ; preds = %mk.plain
  %391 = add i64 %334, 0
  %392 = mul i64 %391, %187
  %393 = add i64 %392, 0
  %394 = getelementptr float, ptr %188, i64 %393
  %395 = load <8 x float>, ptr %394, align 4
  %396 = add i64 %334, 1
  %397 = mul i64 %396, %187
  %398 = add i64 %397, 0
  %399 = getelementptr float, ptr %188, i64 %398
  %400 = load <8 x float>, ptr %399, align 4
  br label %mk.accready53

mk.accready53:                                    ; preds = %mk.accload52, %mk.plain
  %acc054 = phi <8 x float> [ zeroinitializer, %mk.plain ], [ %395, %mk.accload52 ]
  %acc055 = phi <8 x float> [ zeroinitializer, %mk.plain ], [ %400, %mk.accload52 ]
  br label %mk.k56

mk.k56:                                           ; preds = %mk.kbody57, %mk.accready53
  %k59 = phi i64 [ 0, %mk.accready53 ], [ %423, %mk.kbody57 ]
  %acc60 = phi <8 x float> [ %acc054, %mk.accready53 ], [ %414, %mk.kbody57 ]
  %acc61 = phi <8 x float> [ %acc055, %mk.accready53 ], [ %422, %mk.kbody57 ]
  %401 = icmp slt i64 %k59, 16
  br i1 %401, label %mk.kbody57, label %mk.kdone58

mk.kbody57:                                       ; preds = %mk.k56
  %402 = mul i64 %k59, 16
  %403 = add i64 %402, 0
  %404 = add i64 0, %403
  %405 = getelementptr float, ptr %mma.b, i64 %404
  %406 = load <8 x float>, ptr %405, align 4
  %407 = add i64 %334, 0
  %408 = mul i64 %407, 16
  %409 = add i64 %408, %k59
  %410 = getelementptr float, ptr %mma.a, i64 %409
  %411 = load float, ptr %410, align 4
  %412 = insertelement <8 x float> poison, float %411, i32 0
  %413 = shufflevector <8 x float> %412, <8 x float> poison, <8 x i32> zeroinitializer
  %414 = call <8 x float> @llvm.fma.v8f32(<8 x float> %413, <8 x float> %406, <8 x float> %acc60)
  %415 = add i64 %334, 1
  %416 = mul i64 %415, 16
  %417 = add i64 %416, %k59
  %418 = getelementptr float, ptr %mma.a, i64 %417
  %419 = load float, ptr %418, align 4
  %420 = insertelement <8 x float> poison, float %419, i32 0
  %421 = shufflevector <8 x float> %420, <8 x float> poison, <8 x i32> zeroinitializer
  %422 = call <8 x float> @llvm.fma.v8f32(<8 x float> %421, <8 x float> %406, <8 x float> %acc61)
  %423 = add i64 %k59, 1
  br label %mk.k56

mk.kdone58:                                       ; preds = %mk.k56
  %424 = add i64 %334, 0
  %425 = mul i64 %424, %187
  %426 = add i64 %425, 0
  %427 = getelementptr float, ptr %188, i64 %426
  store <8 x float> %acc60, ptr %427, align 4
  %428 = add i64 %334, 1
  %429 = mul i64 %428, %187
  %430 = add i64 %429, 0
  %431 = getelementptr float, ptr %188, i64 %430
  store <8 x float> %acc61, ptr %431, align 4
  br label %mk.blockdone

mk.i62:                                           ; preds = %mk.next66, %mk.done48
  %432 = phi i64 [ 0, %mk.done48 ], [ %439, %mk.next66 ]
  %433 = icmp slt i64 %432, 16
  br i1 %433, label %mk.body63, label %mk.done64

mk.body63:                                        ; preds = %mk.i62
  %434 = sdiv i64 %432, 2
  %435 = getelementptr i8, ptr %mk.skip, i64 %434
  %436 = load i8, ptr %435, align 1
  %437 = icmp eq i8 %436, %322
  br i1 %437, label %mk.work65, label %mk.next66

mk.done64:                                        ; preds = %mk.i62
  br label %mk.passdone

mk.work65:                                        ; preds = %mk.body63
  %438 = icmp eq i64 %432, %332
  br i1 %438, label %mk.checking67, label %mk.plain68

mk.next66:                                        ; preds = %mk.blockdone69, %mk.body63
  %439 = add i64 %432, 2
  br label %mk.i62

mk.checking67:                                    ; preds = %mk.work65
  br i1 %190, label %mk.accready71, label %mk.accload70

mk.plain68:                                       ; preds = %mk.work65
  br i1 %190, label %mk.accready82, label %mk.accload81

mk.blockdone69:                                   ; preds = %mk.kdone87, %mk.kdone76
  br label %mk.next66

mk.accload70:                                     ; preds = %mk.checking67
  %440 = add i64 %432, 0
  %441 = mul i64 %440, %187
  %442 = add i64 %441, 8
  %443 = getelementptr float, ptr %188, i64 %442
  %444 = load <8 x float>, ptr %443, align 4
  %445 = add i64 %432, 1
  %446 = mul i64 %445, %187
  %447 = add i64 %446, 8
  %448 = getelementptr float, ptr %188, i64 %447
  %449 = load <8 x float>, ptr %448, align 4
  br label %mk.accready71

mk.accready71:                                    ; preds = %mk.accload70, %mk.checking67
  %acc072 = phi <8 x float> [ zeroinitializer, %mk.checking67 ], [ %444, %mk.accload70 ]
  %acc073 = phi <8 x float> [ zeroinitializer, %mk.checking67 ], [ %449, %mk.accload70 ]
  br label %mk.k74

mk.k74:                                           ; preds = %mk.kbody75, %mk.accready71
  %k77 = phi i64 [ 0, %mk.accready71 ], [ %476, %mk.kbody75 ]
  %acc78 = phi <8 x float> [ %acc072, %mk.accready71 ], [ %467, %mk.kbody75 ]
  %acc79 = phi <8 x float> [ %acc073, %mk.accready71 ], [ %475, %mk.kbody75 ]
  %nonfinite80 = phi <8 x i1> [ zeroinitializer, %mk.accready71 ], [ %459, %mk.kbody75 ]
  %450 = icmp slt i64 %k77, 16
  br i1 %450, label %mk.kbody75, label %mk.kdone76

mk.kbody75:                                       ; preds = %mk.k74
  %451 = mul i64 %k77, 16
  %452 = add i64 %451, 8
  %453 = add i64 0, %452
  %454 = getelementptr float, ptr %mma.b, i64 %453
  %455 = load <8 x float>, ptr %454, align 4
  %456 = bitcast <8 x float> %455 to <8 x i32>
  %457 = and <8 x i32> %456, splat (i32 2139095040)
  %458 = icmp eq <8 x i32> %457, splat (i32 2139095040)
  %459 = or <8 x i1> %nonfinite80, %458
  %460 = add i64 %432, 0
  %461 = mul i64 %460, 16
  %462 = add i64 %461, %k77
  %463 = getelementptr float, ptr %mma.a, i64 %462
  %464 = load float, ptr %463, align 4
  %465 = insertelement <8 x float> poison, float %464, i32 0
  %466 = shufflevector <8 x float> %465, <8 x float> poison, <8 x i32> zeroinitializer
  %467 = call <8 x float> @llvm.fma.v8f32(<8 x float> %466, <8 x float> %455, <8 x float> %acc78)
  %468 = add i64 %432, 1
  %469 = mul i64 %468, 16
  %470 = add i64 %469, %k77
  %471 = getelementptr float, ptr %mma.a, i64 %470
  %472 = load float, ptr %471, align 4
  %473 = insertelement <8 x float> poison, float %472, i32 0
  %474 = shufflevector <8 x float> %473, <8 x float> poison, <8 x i32> zeroinitializer
  %475 = call <8 x float> @llvm.fma.v8f32(<8 x float> %474, <8 x float> %455, <8 x float> %acc79)
  %476 = add i64 %k77, 1
  br label %mk.k74

mk.kdone76:                                       ; preds = %mk.k74
  %477 = call i1 @llvm.vector.reduce.or.v8i1(<8 x i1> %nonfinite80)
  %478 = load i32, ptr %mk.bbad, align 4
  %479 = zext i1 %477 to i32
  %480 = or i32 %478, %479
  store i32 %480, ptr %mk.bbad, align 4
  %481 = add i64 %432, 0
  %482 = mul i64 %481, %187
  %483 = add i64 %482, 8
  %484 = getelementptr float, ptr %188, i64 %483
  store <8 x float> %acc78, ptr %484, align 4
  %485 = add i64 %432, 1
  %486 = mul i64 %485, %187
  %487 = add i64 %486, 8
  %488 = getelementptr float, ptr %188, i64 %487
  store <8 x float> %acc79, ptr %488, align 4
  br label %mk.blockdone69

mk.accload81:                                     ; preds = %mk.plain68
  %489 = add i64 %432, 0
  %490 = mul i64 %489, %187
  %491 = add i64 %490, 8
  %492 = getelementptr float, ptr %188, i64 %491
  %493 = load <8 x float>, ptr %492, align 4
  %494 = add i64 %432, 1
  %495 = mul i64 %494, %187
  %496 = add i64 %495, 8
  %497 = getelementptr float, ptr %188, i64 %496
  %498 = load <8 x float>, ptr %497, align 4
  br label %mk.accready82

mk.accready82:                                    ; preds = %mk.accload81, %mk.plain68
  %acc083 = phi <8 x float> [ zeroinitializer, %mk.plain68 ], [ %493, %mk.accload81 ]
  %acc084 = phi <8 x float> [ zeroinitializer, %mk.plain68 ], [ %498, %mk.accload81 ]
  br label %mk.k85

mk.k85:                                           ; preds = %mk.kbody86, %mk.accready82
  %k88 = phi i64 [ 0, %mk.accready82 ], [ %521, %mk.kbody86 ]
  %acc89 = phi <8 x float> [ %acc083, %mk.accready82 ], [ %512, %mk.kbody86 ]
  %acc90 = phi <8 x float> [ %acc084, %mk.accready82 ], [ %520, %mk.kbody86 ]
  %499 = icmp slt i64 %k88, 16
  br i1 %499, label %mk.kbody86, label %mk.kdone87

mk.kbody86:                                       ; preds = %mk.k85
  %500 = mul i64 %k88, 16
  %501 = add i64 %500, 8
  %502 = add i64 0, %501
  %503 = getelementptr float, ptr %mma.b, i64 %502
  %504 = load <8 x float>, ptr %503, align 4
  %505 = add i64 %432, 0
  %506 = mul i64 %505, 16
  %507 = add i64 %506, %k88
  %508 = getelementptr float, ptr %mma.a, i64 %507
  %509 = load float, ptr %508, align 4
  %510 = insertelement <8 x float> poison, float %509, i32 0
  %511 = shufflevector <8 x float> %510, <8 x float> poison, <8 x i32> zeroinitializer
  %512 = call <8 x float> @llvm.fma.v8f32(<8 x float> %511, <8 x float> %504, <8 x float> %acc89)
  %513 = add i64 %432, 1
  %514 = mul i64 %513, 16
  %515 = add i64 %514, %k88
  %516 = getelementptr float, ptr %mma.a, i64 %515
  %517 = load float, ptr %516, align 4
  %518 = insertelement <8 x float> poison, float %517, i32 0
  %519 = shufflevector <8 x float> %518, <8 x float> poison, <8 x i32> zeroinitializer
  %520 = call <8 x float> @llvm.fma.v8f32(<8 x float> %519, <8 x float> %504, <8 x float> %acc90)
  %521 = add i64 %k88, 1
  br label %mk.k85

mk.kdone87:                                       ; preds = %mk.k85
  %522 = add i64 %432, 0
  %523 = mul i64 %522, %187
  %524 = add i64 %523, 8
  %525 = getelementptr float, ptr %188, i64 %524
  store <8 x float> %acc89, ptr %525, align 4
  %526 = add i64 %432, 1
  %527 = mul i64 %526, %187
  %528 = add i64 %527, 8
  %529 = getelementptr float, ptr %188, i64 %528
  store <8 x float> %acc90, ptr %529, align 4
  br label %mk.blockdone69

acc.fill:                                         ; preds = %mk.done46
  %530 = load ptr, ptr %acc.at, align 8
  %531 = load i64, ptr %acc.stride, align 8
  br label %acc.zrow

acc.settled:                                      ; preds = %done92, %mk.done46
  %532 = load ptr, ptr %acc.at, align 8
  %acc.inplace = icmp ne ptr %532, %acc
  br i1 %acc.inplace, label %acc.stored, label %acc.copy

acc.zrow:                                         ; preds = %body91, %acc.fill
  %i93 = phi i64 [ 0, %acc.fill ], [ %536, %body91 ]
  %533 = icmp slt i64 %i93, 16
  br i1 %533, label %body91, label %done92

body91:                                           ; preds = %acc.zrow
  %534 = mul i64 %i93, %531
  %535 = getelementptr float, ptr %530, i64 %534
  call void @llvm.memset.p0.i64(ptr align 4 %535, i8 0, i64 64, i1 false)
  %536 = add i64 %i93, 1
  br label %acc.zrow

done92:                                           ; preds = %acc.zrow
  store i8 0, ptr %acc.zero, align 1
  br label %acc.settled

acc.copy:                                         ; preds = %acc.settled
  %537 = getelementptr i64, ptr %1, i64 0
  %538 = load i64, ptr %537, align 8
  %539 = mul i64 1, %538
  %540 = add i64 0, %539
  %541 = getelementptr i64, ptr %1, i64 2
  %542 = load i64, ptr %541, align 8
  %543 = mul i64 1, %542
  %544 = add i64 0, %543
  %545 = sext i32 %3 to i64
  %546 = icmp slt i64 %545, 1099511627776
  %547 = select i1 %546, i64 %545, i64 1099511627776
  %548 = icmp sgt i64 %547, -1099511627776
  %549 = select i1 %548, i64 %547, i64 -1099511627776
  %550 = mul i64 %549, 16
  %551 = sext i32 %2 to i64
  %552 = icmp slt i64 %551, 1099511627776
  %553 = select i1 %552, i64 %551, i64 1099511627776
  %554 = icmp sgt i64 %553, -1099511627776
  %555 = select i1 %554, i64 %553, i64 -1099511627776
  %556 = mul i64 %555, 16
  %557 = icmp sge i64 %550, 0
  %558 = and i1 true, %557
  %559 = icmp sge i64 %556, 0
  %560 = and i1 %558, %559
  %561 = add i64 %550, 16
  %562 = add i64 %556, 16
  %563 = icmp sle i64 %561, %540
  %564 = and i1 %560, %563
  %565 = icmp sle i64 %562, %544
  %566 = and i1 %564, %565
  br i1 %566, label %gl.inside94, label %gl.edge95

acc.stored:                                       ; preds = %gl.done96, %acc.settled
  ret void

gl.inside94:                                      ; preds = %acc.copy
  %567 = mul i64 0, %540
  %568 = add i64 %567, %550
  br label %in.row97

gl.edge95:                                        ; preds = %acc.copy
  br label %gl.row101

gl.done96:                                        ; preds = %done103, %done99
  br label %acc.stored

in.row97:                                         ; preds = %body98, %gl.inside94
  %i100 = phi i64 [ 0, %gl.inside94 ], [ %579, %body98 ]
  %569 = icmp slt i64 %i100, 16
  br i1 %569, label %body98, label %done99

body98:                                           ; preds = %in.row97
  %570 = add i64 %568, %i100
  %571 = mul i64 %570, %544
  %572 = add i64 %571, %556
  %573 = mul i64 %i100, 16
  %574 = add i64 %573, 0
  %575 = add i64 %572, 0
  %576 = getelementptr float, ptr %acc, i64 %574
  %577 = getelementptr float, ptr %C, i64 %575
  %578 = load <16 x float>, ptr %576, align 4
  store <16 x float> %578, ptr %577, align 4
  %579 = add i64 %i100, 1
  br label %in.row97

done99:                                           ; preds = %in.row97
  br label %gl.done96

gl.row101:                                        ; preds = %done107, %gl.edge95
  %i104 = phi i64 [ 0, %gl.edge95 ], [ %607, %done107 ]
  %580 = icmp slt i64 %i104, 16
  br i1 %580, label %body102, label %done103

body102:                                          ; preds = %gl.row101
  %581 = add i64 %550, %i104
  %582 = icmp slt i64 %581, %540
  %583 = icmp sge i64 %581, 0
  %584 = and i1 %583, %582
  %585 = and i1 true, %584
  %586 = mul i64 0, %540
  %587 = add i64 %586, %581
  %588 = mul i64 %587, %544
  %589 = sub i64 0, %556
  %590 = icmp sgt i64 %589, 0
  %591 = select i1 %590, i64 %589, i64 0
  %592 = sub i64 %544, %556
  %593 = icmp slt i64 %592, 16
  %594 = select i1 %593, i64 %592, i64 16
  %595 = select i1 %585, i64 %594, i64 0
  %596 = sub i64 %595, %591
  br label %gl.col105

done103:                                          ; preds = %gl.row101
  br label %gl.done96

gl.col105:                                        ; preds = %body106, %body102
  %i108 = phi i64 [ 0, %body102 ], [ %606, %body106 ]
  %597 = icmp slt i64 %i108, %596
  br i1 %597, label %body106, label %done107

body106:                                          ; preds = %gl.col105
  %598 = add i64 %i108, %591
  %599 = mul i64 %i104, 16
  %600 = add i64 %599, %598
  %601 = add i64 %556, %598
  %602 = add i64 %588, %601
  %603 = getelementptr float, ptr %acc, i64 %600
  %604 = load float, ptr %603, align 4
  %605 = getelementptr float, ptr %C, i64 %602
  store float %604, ptr %605, align 4
  %606 = add i64 %i108, 1
  br label %gl.col105

done107:                                          ; preds = %gl.col105
  %607 = add i64 %i104, 1
  br label %gl.row101
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #0

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <8 x float> @llvm.fma.v8f32(<8 x float>, <8 x float>, <8 x float>) #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i1 @llvm.vector.reduce.or.v8i1(<8 x i1>) #2

attributes #0 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #1 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
