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
  %i3 = phi i64 [ 0, %gl.edge ], [ %191, %done5 ]
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
  %173 = mul i64 %i3, 16
  %174 = add i64 %168, 0
  %175 = insertelement <16 x i64> undef, i64 %172, i32 0
  %176 = shufflevector <16 x i64> %175, <16 x i64> undef, <16 x i32> zeroinitializer
  br label %gl.chunk

done2:                                            ; preds = %gl.row
  br label %gl.done

gl.chunk:                                         ; preds = %body4, %body1
  %i6 = phi i64 [ 0, %body1 ], [ %190, %body4 ]
  %177 = icmp slt i64 %i6, 1
  br i1 %177, label %body4, label %done5

body4:                                            ; preds = %gl.chunk
  %178 = mul i64 %i6, 16
  %179 = insertelement <16 x i64> undef, i64 %178, i32 0
  %180 = shufflevector <16 x i64> %179, <16 x i64> undef, <16 x i32> zeroinitializer
  %181 = add <16 x i64> %180, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %182 = icmp slt <16 x i64> %181, %176
  %183 = icmp sge <16 x i64> %181, zeroinitializer
  %184 = and <16 x i1> %183, %182
  %185 = add i64 %174, %178
  %186 = getelementptr i16, ptr %A, i64 %185
  %187 = add i64 %173, %178
  %188 = getelementptr i16, ptr %a, i64 %187
  %189 = call <16 x i16> @llvm.masked.load.v16i16.p0(ptr align 2 %186, <16 x i1> %184, <16 x i16> zeroinitializer)
  store <16 x i16> %189, ptr %188, align 2
  %190 = add i64 %i6, 1
  br label %gl.chunk

done5:                                            ; preds = %gl.chunk
  %191 = add i64 %i3, 1
  br label %gl.row

gl.inside7:                                       ; preds = %gl.done
  %192 = mul i64 0, %131
  %193 = add i64 %192, 0
  br label %in.row10

gl.edge8:                                         ; preds = %gl.done
  call void @llvm.memset.p0.i64(ptr align 64 %b, i8 0, i64 512, i1 false)
  br label %gl.row17

gl.done9:                                         ; preds = %done19, %done12
  %194 = load i64, ptr %acc.stride, align 8
  %195 = load ptr, ptr %acc.at, align 8
  %196 = load i8, ptr %acc.zero, align 1
  %197 = icmp ne i8 %196, 0
  br label %pack.a

in.row10:                                         ; preds = %done15, %gl.inside7
  %i13 = phi i64 [ 0, %gl.inside7 ], [ %210, %done15 ]
  %198 = icmp slt i64 %i13, 16
  br i1 %198, label %body11, label %done12

body11:                                           ; preds = %in.row10
  %199 = add i64 %193, %i13
  %200 = mul i64 %199, %135
  %201 = add i64 %200, %141
  br label %in.col

done12:                                           ; preds = %in.row10
  br label %gl.done9

in.col:                                           ; preds = %body14, %body11
  %i16 = phi i64 [ 0, %body11 ], [ %209, %body14 ]
  %202 = icmp slt i64 %i16, 16
  br i1 %202, label %body14, label %done15

body14:                                           ; preds = %in.col
  %203 = mul i64 %i16, 16
  %204 = add i64 %203, %i13
  %205 = add i64 %201, %i16
  %206 = getelementptr i16, ptr %B, i64 %205
  %207 = load i16, ptr %206, align 2
  %208 = getelementptr i16, ptr %b, i64 %204
  store i16 %207, ptr %208, align 2
  %209 = add i64 %i16, 1
  br label %in.col

done15:                                           ; preds = %in.col
  %210 = add i64 %i13, 1
  br label %in.row10

gl.row17:                                         ; preds = %done22, %gl.edge8
  %i20 = phi i64 [ 0, %gl.edge8 ], [ %238, %done22 ]
  %211 = icmp slt i64 %i20, 16
  br i1 %211, label %body18, label %done19

body18:                                           ; preds = %gl.row17
  %212 = add i64 0, %i20
  %213 = icmp slt i64 %212, %131
  %214 = icmp sge i64 %212, 0
  %215 = and i1 %214, %213
  %216 = and i1 true, %215
  %217 = mul i64 0, %131
  %218 = add i64 %217, %212
  %219 = mul i64 %218, %135
  %220 = sub i64 0, %141
  %221 = icmp sgt i64 %220, 0
  %222 = select i1 %221, i64 %220, i64 0
  %223 = sub i64 %135, %141
  %224 = icmp slt i64 %223, 16
  %225 = select i1 %224, i64 %223, i64 16
  %226 = select i1 %216, i64 %225, i64 0
  %227 = sub i64 %226, %222
  br label %gl.col

done19:                                           ; preds = %gl.row17
  br label %gl.done9

gl.col:                                           ; preds = %body21, %body18
  %i23 = phi i64 [ 0, %body18 ], [ %237, %body21 ]
  %228 = icmp slt i64 %i23, %227
  br i1 %228, label %body21, label %done22

body21:                                           ; preds = %gl.col
  %229 = add i64 %i23, %222
  %230 = mul i64 %229, 16
  %231 = add i64 %230, %i20
  %232 = add i64 %141, %229
  %233 = add i64 %219, %232
  %234 = getelementptr i16, ptr %B, i64 %233
  %235 = load i16, ptr %234, align 2
  %236 = getelementptr i16, ptr %b, i64 %231
  store i16 %235, ptr %236, align 2
  %237 = add i64 %i23, 1
  br label %gl.col

done22:                                           ; preds = %gl.col
  %238 = add i64 %i20, 1
  br label %gl.row17

pack.a:                                           ; preds = %done28, %gl.done9
  %i26 = phi i64 [ 0, %gl.done9 ], [ %252, %done28 ]
  %239 = icmp slt i64 %i26, 16
  br i1 %239, label %body24, label %done25

body24:                                           ; preds = %pack.a
  br label %pack.ak

done25:                                           ; preds = %pack.a
  br label %pack.b

pack.ak:                                          ; preds = %body27, %body24
  %i29 = phi i64 [ 0, %body24 ], [ %251, %body27 ]
  %240 = icmp slt i64 %i29, 16
  br i1 %240, label %body27, label %done28

body27:                                           ; preds = %pack.ak
  %241 = mul i64 %i26, 16
  %242 = add i64 %241, %i29
  %243 = mul i64 %i26, 16
  %244 = add i64 %243, %i29
  %245 = getelementptr i16, ptr %a, i64 %242
  %246 = load i16, ptr %245, align 2
  %247 = zext i16 %246 to i32
  %248 = shl i32 %247, 16
  %249 = bitcast i32 %248 to float
  %250 = getelementptr float, ptr %mma.a, i64 %244
  store float %249, ptr %250, align 4
  %251 = add i64 %i29, 1
  br label %pack.ak

done28:                                           ; preds = %pack.ak
  %252 = add i64 %i26, 1
  br label %pack.a

pack.b:                                           ; preds = %done34, %done25
  %i32 = phi i64 [ 0, %done25 ], [ %274, %done34 ]
  %253 = icmp slt i64 %i32, 16
  br i1 %253, label %body30, label %done31

body30:                                           ; preds = %pack.b
  br label %pack.bn

done31:                                           ; preds = %pack.b
  store i32 0, ptr %mk.any, align 4
  store i32 1, ptr %mk.all, align 4
  store i64 16, ptr %mk.first, align 8
  br label %mk.zrows

pack.bn:                                          ; preds = %body33, %body30
  %i35 = phi i64 [ 0, %body30 ], [ %273, %body33 ]
  %254 = icmp slt i64 %i35, 16
  br i1 %254, label %body33, label %done34

body33:                                           ; preds = %pack.bn
  %255 = mul i64 %i35, 16
  %256 = add i64 %255, %i32
  %257 = udiv i64 %i35, 32
  %258 = urem i64 %i35, 32
  %259 = mul i64 %257, 32
  %260 = sub i64 16, %259
  %261 = icmp slt i64 %260, 32
  %262 = select i1 %261, i64 %260, i64 32
  %263 = mul i64 %257, 512
  %264 = mul i64 %i32, %262
  %265 = add i64 %264, %258
  %266 = add i64 %263, %265
  %267 = getelementptr i16, ptr %b, i64 %256
  %268 = load i16, ptr %267, align 2
  %269 = zext i16 %268 to i32
  %270 = shl i32 %269, 16
  %271 = bitcast i32 %270 to float
  %272 = getelementptr float, ptr %mma.b, i64 %266
  store float %271, ptr %272, align 4
  %273 = add i64 %i35, 1
  br label %pack.bn

done34:                                           ; preds = %pack.bn
  %274 = add i64 %i32, 1
  br label %pack.b

mk.zrows:                                         ; preds = %mk.scanned, %done31
  %275 = phi i64 [ 0, %done31 ], [ %300, %mk.scanned ]
  %276 = icmp slt i64 %275, 8
  br i1 %276, label %mk.body, label %mk.done

mk.body:                                          ; preds = %mk.zrows
  %277 = sub i64 7, %275
  %278 = mul i64 %277, 2
  store i32 0, ptr %mk.orv, align 4
  %279 = mul i64 %278, 16
  %280 = add i64 %279, 0
  %281 = getelementptr float, ptr %mma.a, i64 %280
  br label %mk.scan

mk.done:                                          ; preds = %mk.zrows
  %282 = load i32, ptr %mk.any, align 4
  %283 = icmp ne i32 %282, 0
  %284 = load i32, ptr %mk.all, align 4
  %285 = icmp ne i32 %284, 0
  %286 = load i64, ptr %mk.first, align 8
  %287 = and i1 %197, %283
  br i1 %287, label %mk.zskip, label %mk.zskipdone

mk.scanned:                                       ; preds = %mk.done37, %mk.done39
  %288 = load i32, ptr %mk.orv, align 4
  %289 = icmp eq i32 %288, 0
  %290 = zext i1 %289 to i32
  %291 = getelementptr i8, ptr %mk.skip, i64 %277
  %292 = trunc i32 %290 to i8
  store i8 %292, ptr %291, align 1
  %293 = load i32, ptr %mk.any, align 4
  %294 = or i32 %293, %290
  store i32 %294, ptr %mk.any, align 4
  %295 = load i32, ptr %mk.all, align 4
  %296 = and i32 %295, %290
  store i32 %296, ptr %mk.all, align 4
  %297 = load i64, ptr %mk.first, align 8
  %298 = mul i64 %277, 2
  %299 = select i1 %289, i64 %297, i64 %298
  store i64 %299, ptr %mk.first, align 8
  %300 = add i64 %275, 1
  br label %mk.zrows

mk.scan:                                          ; preds = %mk.scanmore, %mk.body
  %301 = phi i64 [ 0, %mk.body ], [ %314, %mk.scanmore ]
  %302 = icmp slt i64 %301, 1
  br i1 %302, label %mk.body36, label %mk.done37

mk.body36:                                        ; preds = %mk.scan
  %303 = getelementptr i32, ptr %281, i64 0
  br label %mk.or

mk.done37:                                        ; preds = %mk.scan
  br label %mk.scanned

mk.or:                                            ; preds = %mk.body38, %mk.body36
  %304 = phi i64 [ 0, %mk.body36 ], [ %311, %mk.body38 ]
  %305 = icmp slt i64 %304, 32
  br i1 %305, label %mk.body38, label %mk.done39

mk.body38:                                        ; preds = %mk.or
  %306 = getelementptr i32, ptr %303, i64 %304
  %307 = load i32, ptr %306, align 4
  %308 = and i32 %307, 2147483647
  %309 = load i32, ptr %mk.orv, align 4
  %310 = or i32 %309, %308
  store i32 %310, ptr %mk.orv, align 4
  %311 = add i64 %304, 1
  br label %mk.or

mk.done39:                                        ; preds = %mk.or
  %312 = load i32, ptr %mk.orv, align 4
  %313 = icmp ne i32 %312, 0
  br i1 %313, label %mk.scanned, label %mk.scanmore

mk.scanmore:                                      ; preds = %mk.done39
  %314 = add i64 %301, 1
  br label %mk.scan

mk.zskip:                                         ; preds = %mk.done
  br label %mk.zblk

mk.zskipdone:                                     ; preds = %mk.done41, %mk.done
  store i32 0, ptr %mk.bbad, align 4
  %315 = select i1 %283, i64 %286, i64 -1
  br label %mk.pass

mk.zblk:                                          ; preds = %mk.znext, %mk.zskip
  %316 = phi i64 [ 0, %mk.zskip ], [ %321, %mk.znext ]
  %317 = icmp slt i64 %316, 8
  br i1 %317, label %mk.body40, label %mk.done41

mk.body40:                                        ; preds = %mk.zblk
  %318 = getelementptr i8, ptr %mk.skip, i64 %316
  %319 = load i8, ptr %318, align 1
  %320 = icmp ne i8 %319, 0
  br i1 %320, label %mk.zfill, label %mk.znext

mk.done41:                                        ; preds = %mk.zblk
  br label %mk.zskipdone

mk.zfill:                                         ; preds = %mk.body40
  br label %mk.zrow

mk.znext:                                         ; preds = %mk.done43, %mk.body40
  %321 = add i64 %316, 1
  br label %mk.zblk

mk.zrow:                                          ; preds = %mk.done45, %mk.zfill
  %322 = phi i64 [ 0, %mk.zfill ], [ %332, %mk.done45 ]
  %323 = icmp slt i64 %322, 2
  br i1 %323, label %mk.body42, label %mk.done43

mk.body42:                                        ; preds = %mk.zrow
  %324 = mul i64 %316, 2
  %325 = add i64 %324, %322
  %326 = mul i64 %325, %194
  br label %mk.zcol

mk.done43:                                        ; preds = %mk.zrow
  br label %mk.znext

mk.zcol:                                          ; preds = %mk.body44, %mk.body42
  %327 = phi i64 [ 0, %mk.body42 ], [ %331, %mk.body44 ]
  %328 = icmp slt i64 %327, 16
  br i1 %328, label %mk.body44, label %mk.done45

mk.body44:                                        ; preds = %mk.zcol
  %329 = add i64 %326, %327
  %330 = getelementptr float, ptr %195, i64 %329
  store <8 x float> zeroinitializer, ptr %330, align 4
  %331 = add i64 %327, 8
  br label %mk.zcol

mk.done45:                                        ; preds = %mk.zcol
  %332 = add i64 %322, 1
  br label %mk.zrow

mk.pass:                                          ; preds = %mk.passdone, %mk.zskipdone
  %333 = phi i64 [ 0, %mk.zskipdone ], [ %346, %mk.passdone ]
  %334 = icmp slt i64 %333, 2
  br i1 %334, label %mk.body46, label %mk.done47

mk.body46:                                        ; preds = %mk.pass
  %335 = trunc i64 %333 to i8
  %336 = load i32, ptr %mk.bbad, align 4
  %337 = icmp ne i32 %336, 0
  %338 = or i1 %285, %337
  %339 = and i1 %283, %338
  %340 = icmp eq i64 %333, 0
  %341 = or i1 %340, %339
  br i1 %341, label %mk.passrun, label %mk.passdone

mk.done47:                                        ; preds = %mk.pass
  store i8 0, ptr %acc.zero, align 1
  %342 = load i8, ptr %acc.zero, align 1
  %343 = icmp ne i8 %342, 0
  br i1 %343, label %acc.fill, label %acc.settled

mk.passrun:                                       ; preds = %mk.body46
  %344 = icmp eq i64 %333, 0
  %345 = select i1 %344, i64 %315, i64 -1
  br label %mk.i

mk.passdone:                                      ; preds = %mk.done65, %mk.body46
  %346 = add i64 %333, 1
  br label %mk.pass

mk.i:                                             ; preds = %mk.next, %mk.passrun
  %347 = phi i64 [ 0, %mk.passrun ], [ %354, %mk.next ]
  %348 = icmp slt i64 %347, 16
  br i1 %348, label %mk.body48, label %mk.done49

mk.body48:                                        ; preds = %mk.i
  %349 = sdiv i64 %347, 2
  %350 = getelementptr i8, ptr %mk.skip, i64 %349
  %351 = load i8, ptr %350, align 1
  %352 = icmp eq i8 %351, %335
  br i1 %352, label %mk.work, label %mk.next

mk.done49:                                        ; preds = %mk.i
  br label %mk.i63

mk.work:                                          ; preds = %mk.body48
  %353 = icmp eq i64 %347, %345
  br i1 %353, label %mk.checking, label %mk.plain

mk.next:                                          ; preds = %mk.blockdone, %mk.body48
  %354 = add i64 %347, 2
  br label %mk.i

mk.checking:                                      ; preds = %mk.work
  br i1 %197, label %mk.accready, label %mk.accload

mk.plain:                                         ; preds = %mk.work
  br i1 %197, label %mk.accready54, label %mk.accload53

mk.blockdone:                                     ; preds = %mk.kdone59, %mk.kdone
  br label %mk.next

mk.accload:                                       ; preds = %mk.checking
  %355 = add i64 %347, 0
  %356 = mul i64 %355, %194
  %357 = add i64 %356, 0
  %358 = getelementptr float, ptr %195, i64 %357
  %359 = load <8 x float>, ptr %358, align 4
  %360 = add i64 %347, 1
  %361 = mul i64 %360, %194
  %362 = add i64 %361, 0
  %363 = getelementptr float, ptr %195, i64 %362
  %364 = load <8 x float>, ptr %363, align 4
  br label %mk.accready

mk.accready:                                      ; preds = %mk.accload, %mk.checking
  %acc0 = phi <8 x float> [ zeroinitializer, %mk.checking ], [ %359, %mk.accload ]
  %acc050 = phi <8 x float> [ zeroinitializer, %mk.checking ], [ %364, %mk.accload ]
  br label %mk.k

mk.k:                                             ; preds = %mk.kbody, %mk.accready
  %k = phi i64 [ 0, %mk.accready ], [ %390, %mk.kbody ]
  %acc51 = phi <8 x float> [ %acc0, %mk.accready ], [ %381, %mk.kbody ]
  %acc52 = phi <8 x float> [ %acc050, %mk.accready ], [ %389, %mk.kbody ]
  %exponents = phi <8 x i32> [ zeroinitializer, %mk.accready ], [ %373, %mk.kbody ]
  %365 = icmp slt i64 %k, 16
  br i1 %365, label %mk.kbody, label %mk.kdone

mk.kbody:                                         ; preds = %mk.k
  %366 = mul i64 %k, 16
  %367 = add i64 %366, 0
  %368 = add i64 0, %367
  %369 = getelementptr float, ptr %mma.b, i64 %368
  %370 = load <8 x float>, ptr %369, align 4
  %371 = bitcast <8 x float> %370 to <8 x i32>
  %372 = and <8 x i32> %371, splat (i32 2139095040)
  %373 = call <8 x i32> @llvm.umax.v8i32(<8 x i32> %exponents, <8 x i32> %372)
  %374 = add i64 %347, 0
  %375 = mul i64 %374, 16
  %376 = add i64 %375, %k
  %377 = getelementptr float, ptr %mma.a, i64 %376
  %378 = load float, ptr %377, align 4
  %379 = insertelement <8 x float> poison, float %378, i32 0
  %380 = shufflevector <8 x float> %379, <8 x float> poison, <8 x i32> zeroinitializer
  %381 = call <8 x float> @llvm.fma.v8f32(<8 x float> %380, <8 x float> %370, <8 x float> %acc51)
  %382 = add i64 %347, 1
  %383 = mul i64 %382, 16
  %384 = add i64 %383, %k
  %385 = getelementptr float, ptr %mma.a, i64 %384
  %386 = load float, ptr %385, align 4
  %387 = insertelement <8 x float> poison, float %386, i32 0
  %388 = shufflevector <8 x float> %387, <8 x float> poison, <8 x i32> zeroinitializer
  %389 = call <8 x float> @llvm.fma.v8f32(<8 x float> %388, <8 x float> %370, <8 x float> %acc52)
  %390 = add i64 %k, 1
  br label %mk.k

mk.kdone:                                         ; preds = %mk.k
  %391 = call i32 @llvm.vector.reduce.umax.v8i32(<8 x i32> %exponents)
  %392 = icmp eq i32 %391, 2139095040
  %393 = load i32, ptr %mk.bbad, align 4
  %394 = zext i1 %392 to i32
  %395 = or i32 %393, %394
  store i32 %395, ptr %mk.bbad, align 4
  %396 = add i64 %347, 0
  %397 = mul i64 %396, %194
  %398 = add i64 %397, 0
  %399 = getelementptr float, ptr %195, i64 %398
  store <8 x float> %acc51, ptr %399, align 4
  %400 = add i64 %347, 1
  %401 = mul i64 %400, %194
  %402 = add i64 %401, 0
  %403 = getelementptr float, ptr %195, i64 %402
  store <8 x float> %acc52, ptr %403, align 4
  br label %mk.blockdone

mk.accload53:                                     ; preds = %mk.plain
  %404 = add i64 %347, 0
  %405 = mul i64 %404, %194
  %406 = add i64 %405, 0
  %407 = getelementptr float, ptr %195, i64 %406
  %408 = load <8 x float>, ptr %407, align 4
  %409 = add i64 %347, 1
  %410 = mul i64 %409, %194
  %411 = add i64 %410, 0
  %412 = getelementptr float, ptr %195, i64 %411
  %413 = load <8 x float>, ptr %412, align 4
  br label %mk.accready54

mk.accready54:                                    ; preds = %mk.accload53, %mk.plain
  %acc055 = phi <8 x float> [ zeroinitializer, %mk.plain ], [ %408, %mk.accload53 ]
  %acc056 = phi <8 x float> [ zeroinitializer, %mk.plain ], [ %413, %mk.accload53 ]
  br label %mk.k57

mk.k57:                                           ; preds = %mk.kbody58, %mk.accready54
  %k60 = phi i64 [ 0, %mk.accready54 ], [ %436, %mk.kbody58 ]
  %acc61 = phi <8 x float> [ %acc055, %mk.accready54 ], [ %427, %mk.kbody58 ]
  %acc62 = phi <8 x float> [ %acc056, %mk.accready54 ], [ %435, %mk.kbody58 ]
  %414 = icmp slt i64 %k60, 16
  br i1 %414, label %mk.kbody58, label %mk.kdone59

mk.kbody58:                                       ; preds = %mk.k57
  %415 = mul i64 %k60, 16
  %416 = add i64 %415, 0
  %417 = add i64 0, %416
  %418 = getelementptr float, ptr %mma.b, i64 %417
  %419 = load <8 x float>, ptr %418, align 4
  %420 = add i64 %347, 0
  %421 = mul i64 %420, 16
  %422 = add i64 %421, %k60
  %423 = getelementptr float, ptr %mma.a, i64 %422
  %424 = load float, ptr %423, align 4
  %425 = insertelement <8 x float> poison, float %424, i32 0
  %426 = shufflevector <8 x float> %425, <8 x float> poison, <8 x i32> zeroinitializer
  %427 = call <8 x float> @llvm.fma.v8f32(<8 x float> %426, <8 x float> %419, <8 x float> %acc61)
  %428 = add i64 %347, 1
  %429 = mul i64 %428, 16
  %430 = add i64 %429, %k60
  %431 = getelementptr float, ptr %mma.a, i64 %430
  %432 = load float, ptr %431, align 4
  %433 = insertelement <8 x float> poison, float %432, i32 0
  %434 = shufflevector <8 x float> %433, <8 x float> poison, <8 x i32> zeroinitializer
  %435 = call <8 x float> @llvm.fma.v8f32(<8 x float> %434, <8 x float> %419, <8 x float> %acc62)
  %436 = add i64 %k60, 1
  br label %mk.k57

mk.kdone59:                                       ; preds = %mk.k57
  %437 = add i64 %347, 0
  %438 = mul i64 %437, %194
  %439 = add i64 %438, 0
  %440 = getelementptr float, ptr %195, i64 %439
  store <8 x float> %acc61, ptr %440, align 4
  %441 = add i64 %347, 1
  %442 = mul i64 %441, %194
  %443 = add i64 %442, 0
  %444 = getelementptr float, ptr %195, i64 %443
  store <8 x float> %acc62, ptr %444, align 4
  br label %mk.blockdone

mk.i63:                                           ; preds = %mk.next67, %mk.done49
  %445 = phi i64 [ 0, %mk.done49 ], [ %452, %mk.next67 ]
  %446 = icmp slt i64 %445, 16
  br i1 %446, label %mk.body64, label %mk.done65

mk.body64:                                        ; preds = %mk.i63
  %447 = sdiv i64 %445, 2
  %448 = getelementptr i8, ptr %mk.skip, i64 %447
  %449 = load i8, ptr %448, align 1
  %450 = icmp eq i8 %449, %335
  br i1 %450, label %mk.work66, label %mk.next67

mk.done65:                                        ; preds = %mk.i63
  br label %mk.passdone

mk.work66:                                        ; preds = %mk.body64
  %451 = icmp eq i64 %445, %345
  br i1 %451, label %mk.checking68, label %mk.plain69

mk.next67:                                        ; preds = %mk.blockdone70, %mk.body64
  %452 = add i64 %445, 2
  br label %mk.i63

mk.checking68:                                    ; preds = %mk.work66
  br i1 %197, label %mk.accready72, label %mk.accload71

mk.plain69:                                       ; preds = %mk.work66
  br i1 %197, label %mk.accready83, label %mk.accload82

mk.blockdone70:                                   ; preds = %mk.kdone88, %mk.kdone77
  br label %mk.next67

mk.accload71:                                     ; preds = %mk.checking68
  %453 = add i64 %445, 0
  %454 = mul i64 %453, %194
  %455 = add i64 %454, 8
  %456 = getelementptr float, ptr %195, i64 %455
  %457 = load <8 x float>, ptr %456, align 4
  %458 = add i64 %445, 1
  %459 = mul i64 %458, %194
  %460 = add i64 %459, 8
  %461 = getelementptr float, ptr %195, i64 %460
  %462 = load <8 x float>, ptr %461, align 4
  br label %mk.accready72

mk.accready72:                                    ; preds = %mk.accload71, %mk.checking68
  %acc073 = phi <8 x float> [ zeroinitializer, %mk.checking68 ], [ %457, %mk.accload71 ]
  %acc074 = phi <8 x float> [ zeroinitializer, %mk.checking68 ], [ %462, %mk.accload71 ]
  br label %mk.k75

mk.k75:                                           ; preds = %mk.kbody76, %mk.accready72
  %k78 = phi i64 [ 0, %mk.accready72 ], [ %488, %mk.kbody76 ]
  %acc79 = phi <8 x float> [ %acc073, %mk.accready72 ], [ %479, %mk.kbody76 ]
  %acc80 = phi <8 x float> [ %acc074, %mk.accready72 ], [ %487, %mk.kbody76 ]
  %exponents81 = phi <8 x i32> [ zeroinitializer, %mk.accready72 ], [ %471, %mk.kbody76 ]
  %463 = icmp slt i64 %k78, 16
  br i1 %463, label %mk.kbody76, label %mk.kdone77

mk.kbody76:                                       ; preds = %mk.k75
  %464 = mul i64 %k78, 16
  %465 = add i64 %464, 8
  %466 = add i64 0, %465
  %467 = getelementptr float, ptr %mma.b, i64 %466
  %468 = load <8 x float>, ptr %467, align 4
  %469 = bitcast <8 x float> %468 to <8 x i32>
  %470 = and <8 x i32> %469, splat (i32 2139095040)
  %471 = call <8 x i32> @llvm.umax.v8i32(<8 x i32> %exponents81, <8 x i32> %470)
  %472 = add i64 %445, 0
  %473 = mul i64 %472, 16
  %474 = add i64 %473, %k78
  %475 = getelementptr float, ptr %mma.a, i64 %474
  %476 = load float, ptr %475, align 4
  %477 = insertelement <8 x float> poison, float %476, i32 0
  %478 = shufflevector <8 x float> %477, <8 x float> poison, <8 x i32> zeroinitializer
  %479 = call <8 x float> @llvm.fma.v8f32(<8 x float> %478, <8 x float> %468, <8 x float> %acc79)
  %480 = add i64 %445, 1
  %481 = mul i64 %480, 16
  %482 = add i64 %481, %k78
  %483 = getelementptr float, ptr %mma.a, i64 %482
  %484 = load float, ptr %483, align 4
  %485 = insertelement <8 x float> poison, float %484, i32 0
  %486 = shufflevector <8 x float> %485, <8 x float> poison, <8 x i32> zeroinitializer
  %487 = call <8 x float> @llvm.fma.v8f32(<8 x float> %486, <8 x float> %468, <8 x float> %acc80)
  %488 = add i64 %k78, 1
  br label %mk.k75

mk.kdone77:                                       ; preds = %mk.k75
  %489 = call i32 @llvm.vector.reduce.umax.v8i32(<8 x i32> %exponents81)
  %490 = icmp eq i32 %489, 2139095040
  %491 = load i32, ptr %mk.bbad, align 4
  %492 = zext i1 %490 to i32
  %493 = or i32 %491, %492
  store i32 %493, ptr %mk.bbad, align 4
  %494 = add i64 %445, 0
  %495 = mul i64 %494, %194
  %496 = add i64 %495, 8
  %497 = getelementptr float, ptr %195, i64 %496
  store <8 x float> %acc79, ptr %497, align 4
  %498 = add i64 %445, 1
  %499 = mul i64 %498, %194
  %500 = add i64 %499, 8
  %501 = getelementptr float, ptr %195, i64 %500
  store <8 x float> %acc80, ptr %501, align 4
  br label %mk.blockdone70

mk.accload82:                                     ; preds = %mk.plain69
  %502 = add i64 %445, 0
  %503 = mul i64 %502, %194
  %504 = add i64 %503, 8
  %505 = getelementptr float, ptr %195, i64 %504
  %506 = load <8 x float>, ptr %505, align 4
  %507 = add i64 %445, 1
  %508 = mul i64 %507, %194
  %509 = add i64 %508, 8
  %510 = getelementptr float, ptr %195, i64 %509
  %511 = load <8 x float>, ptr %510, align 4
  br label %mk.accready83

mk.accready83:                                    ; preds = %mk.accload82, %mk.plain69
  %acc084 = phi <8 x float> [ zeroinitializer, %mk.plain69 ], [ %506, %mk.accload82 ]
  %acc085 = phi <8 x float> [ zeroinitializer, %mk.plain69 ], [ %511, %mk.accload82 ]
  br label %mk.k86

mk.k86:                                           ; preds = %mk.kbody87, %mk.accready83
  %k89 = phi i64 [ 0, %mk.accready83 ], [ %534, %mk.kbody87 ]
  %acc90 = phi <8 x float> [ %acc084, %mk.accready83 ], [ %525, %mk.kbody87 ]
  %acc91 = phi <8 x float> [ %acc085, %mk.accready83 ], [ %533, %mk.kbody87 ]
  %512 = icmp slt i64 %k89, 16
  br i1 %512, label %mk.kbody87, label %mk.kdone88

mk.kbody87:                                       ; preds = %mk.k86
  %513 = mul i64 %k89, 16
  %514 = add i64 %513, 8
  %515 = add i64 0, %514
  %516 = getelementptr float, ptr %mma.b, i64 %515
  %517 = load <8 x float>, ptr %516, align 4
  %518 = add i64 %445, 0
  %519 = mul i64 %518, 16
  %520 = add i64 %519, %k89
  %521 = getelementptr float, ptr %mma.a, i64 %520
  %522 = load float, ptr %521, align 4
  %523 = insertelement <8 x float> poison, float %522, i32 0
  %524 = shufflevector <8 x float> %523, <8 x float> poison, <8 x i32> zeroinitializer
  %525 = call <8 x float> @llvm.fma.v8f32(<8 x float> %524, <8 x float> %517, <8 x float> %acc90)
  %526 = add i64 %445, 1
  %527 = mul i64 %526, 16
  %528 = add i64 %527, %k89
  %529 = getelementptr float, ptr %mma.a, i64 %528
  %530 = load float, ptr %529, align 4
  %531 = insertelement <8 x float> poison, float %530, i32 0
  %532 = shufflevector <8 x float> %531, <8 x float> poison, <8 x i32> zeroinitializer
  %533 = call <8 x float> @llvm.fma.v8f32(<8 x float> %532, <8 x float> %517, <8 x float> %acc91)
  %534 = add i64 %k89, 1
  br label %mk.k86

mk.kdone88:                                       ; preds = %mk.k86
  %535 = add i64 %445, 0
  %536 = mul i64 %535, %194
  %537 = add i64 %536, 8
  %538 = getelementptr float, ptr %195, i64 %537
  store <8 x float> %acc90, ptr %538, align 4
  %539 = add i64 %445, 1
  %540 = mul i64 %539, %194
  %541 = add i64 %540, 8
  %542 = getelementptr float, ptr %195, i64 %541
  store <8 x float> %acc91, ptr %542, align 4
  br label %mk.blockdone70

acc.fill:                                         ; preds = %mk.done47
  %543 = load ptr, ptr %acc.at, align 8
  %544 = load i64, ptr %acc.stride, align 8
  br label %acc.zrow

acc.settled:                                      ; preds = %done93, %mk.done47
  %545 = load ptr, ptr %acc.at, align 8
  %acc.inplace = icmp ne ptr %545, %acc
  br i1 %acc.inplace, label %acc.stored, label %acc.copy

acc.zrow:                                         ; preds = %body92, %acc.fill
  %i94 = phi i64 [ 0, %acc.fill ], [ %549, %body92 ]
  %546 = icmp slt i64 %i94, 16
  br i1 %546, label %body92, label %done93

body92:                                           ; preds = %acc.zrow
  %547 = mul i64 %i94, %544
  %548 = getelementptr float, ptr %543, i64 %547
  call void @llvm.memset.p0.i64(ptr align 4 %548, i8 0, i64 64, i1 false)
  %549 = add i64 %i94, 1
  br label %acc.zrow

done93:                                           ; preds = %acc.zrow
  store i8 0, ptr %acc.zero, align 1
  br label %acc.settled

acc.copy:                                         ; preds = %acc.settled
  %550 = getelementptr i64, ptr %1, i64 0
  %551 = load i64, ptr %550, align 8
  %552 = mul i64 1, %551
  %553 = add i64 0, %552
  %554 = getelementptr i64, ptr %1, i64 2
  %555 = load i64, ptr %554, align 8
  %556 = mul i64 1, %555
  %557 = add i64 0, %556
  %558 = sext i32 %3 to i64
  %559 = icmp slt i64 %558, 1099511627776
  %560 = select i1 %559, i64 %558, i64 1099511627776
  %561 = icmp sgt i64 %560, -1099511627776
  %562 = select i1 %561, i64 %560, i64 -1099511627776
  %563 = mul i64 %562, 16
  %564 = sext i32 %2 to i64
  %565 = icmp slt i64 %564, 1099511627776
  %566 = select i1 %565, i64 %564, i64 1099511627776
  %567 = icmp sgt i64 %566, -1099511627776
  %568 = select i1 %567, i64 %566, i64 -1099511627776
  %569 = mul i64 %568, 16
  %570 = icmp sge i64 %563, 0
  %571 = and i1 true, %570
  %572 = icmp sge i64 %569, 0
  %573 = and i1 %571, %572
  %574 = add i64 %563, 16
  %575 = add i64 %569, 16
  %576 = icmp sle i64 %574, %553
  %577 = and i1 %573, %576
  %578 = icmp sle i64 %575, %557
  %579 = and i1 %577, %578
  br i1 %579, label %gl.inside95, label %gl.edge96

acc.stored:                                       ; preds = %gl.done97, %acc.settled
  ret void

gl.inside95:                                      ; preds = %acc.copy
  %580 = mul i64 0, %553
  %581 = add i64 %580, %563
  br label %in.row98

gl.edge96:                                        ; preds = %acc.copy
  br label %gl.row102

gl.done97:                                        ; preds = %done104, %done100
  br label %acc.stored

in.row98:                                         ; preds = %body99, %gl.inside95
  %i101 = phi i64 [ 0, %gl.inside95 ], [ %592, %body99 ]
  %582 = icmp slt i64 %i101, 16
  br i1 %582, label %body99, label %done100

body99:                                           ; preds = %in.row98
  %583 = add i64 %581, %i101
  %584 = mul i64 %583, %557
  %585 = add i64 %584, %569
  %586 = mul i64 %i101, 16
  %587 = add i64 %586, 0
  %588 = add i64 %585, 0
  %589 = getelementptr float, ptr %acc, i64 %587
  %590 = getelementptr float, ptr %C, i64 %588
  %591 = load <16 x float>, ptr %589, align 4
  store <16 x float> %591, ptr %590, align 4
  %592 = add i64 %i101, 1
  br label %in.row98

done100:                                          ; preds = %in.row98
  br label %gl.done97

gl.row102:                                        ; preds = %done108, %gl.edge96
  %i105 = phi i64 [ 0, %gl.edge96 ], [ %629, %done108 ]
  %593 = icmp slt i64 %i105, 16
  br i1 %593, label %body103, label %done104

body103:                                          ; preds = %gl.row102
  %594 = add i64 %563, %i105
  %595 = icmp slt i64 %594, %553
  %596 = icmp sge i64 %594, 0
  %597 = and i1 %596, %595
  %598 = and i1 true, %597
  %599 = mul i64 0, %553
  %600 = add i64 %599, %594
  %601 = mul i64 %600, %557
  %602 = sub i64 0, %569
  %603 = icmp sgt i64 %602, 0
  %604 = select i1 %603, i64 %602, i64 0
  %605 = sub i64 %557, %569
  %606 = icmp slt i64 %605, 16
  %607 = select i1 %606, i64 %605, i64 16
  %608 = select i1 %598, i64 %607, i64 0
  %609 = mul i64 %i105, 16
  %610 = add i64 %601, %569
  %611 = insertelement <16 x i64> undef, i64 %604, i32 0
  %612 = shufflevector <16 x i64> %611, <16 x i64> undef, <16 x i32> zeroinitializer
  %613 = insertelement <16 x i64> undef, i64 %608, i32 0
  %614 = shufflevector <16 x i64> %613, <16 x i64> undef, <16 x i32> zeroinitializer
  br label %gl.chunk106

done104:                                          ; preds = %gl.row102
  br label %gl.done97

gl.chunk106:                                      ; preds = %body107, %body103
  %i109 = phi i64 [ 0, %body103 ], [ %628, %body107 ]
  %615 = icmp slt i64 %i109, 1
  br i1 %615, label %body107, label %done108

body107:                                          ; preds = %gl.chunk106
  %616 = mul i64 %i109, 16
  %617 = insertelement <16 x i64> undef, i64 %616, i32 0
  %618 = shufflevector <16 x i64> %617, <16 x i64> undef, <16 x i32> zeroinitializer
  %619 = add <16 x i64> %618, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %620 = icmp slt <16 x i64> %619, %614
  %621 = icmp sge <16 x i64> %619, %612
  %622 = and <16 x i1> %621, %620
  %623 = add i64 %610, %616
  %624 = getelementptr float, ptr %C, i64 %623
  %625 = add i64 %609, %616
  %626 = getelementptr float, ptr %acc, i64 %625
  %627 = load <16 x float>, ptr %626, align 4
  call void @llvm.masked.store.v16f32.p0(<16 x float> %627, ptr align 4 %624, <16 x i1> %622)
  %628 = add i64 %i109, 1
  br label %gl.chunk106

done108:                                          ; preds = %gl.chunk106
  %629 = add i64 %i105, 1
  br label %gl.row102
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: read)
declare <16 x i16> @llvm.masked.load.v16i16.p0(ptr captures(none), <16 x i1>, <16 x i16>) #0

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <8 x i32> @llvm.umax.v8i32(<8 x i32>, <8 x i32>) #2

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <8 x float> @llvm.fma.v8f32(<8 x float>, <8 x float>, <8 x float>) #2

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.vector.reduce.umax.v8i32(<8 x i32>) #3

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: write)
declare void @llvm.masked.store.v16f32.p0(<16 x float>, ptr captures(none), <16 x i1>) #4

attributes #0 = { nocallback nofree nosync nounwind willreturn memory(argmem: read) }
attributes #1 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { nocallback nofree nosync nounwind willreturn memory(argmem: write) }
