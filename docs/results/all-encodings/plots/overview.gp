# overview.gp: overview of the study: final accuracy per series, task and length
# Written by ordo; edit freely and redraw with: gnuplot overview.gp (writes overview.png and overview.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1362,794 font "sans,11" noenhanced
} else {
  set terminal svg size 1362,794 font "sans,11" noenhanced background "#ffffff"
}
set output "overview." . format
set multiplot
set yrange [13.5:-0.5]
set cbrange [0:1]
set palette defined (0 "#f7fbff", 0.35 "#9ecae1", 0.7 "#3182bd", 1 "#08306b")
set cblabel "score: 0 = chance (or the commonest answer),\n1 = accuracy 1" offset -0.5,0
set cbtics 0,0.25
unset key
set tics scale 0
set tics front
unset xtics
set ytics ("xpos (causal=true)" 0, "cope (causal=true)" 1, "rope" 2, "fire" 3, "t5" 4, "cyclic" 5, "learned" 6, "sinusoidal" 7, "fourier2d" 8, "rbf" 9, "kerple_power" 10, "kerple_log" 11, "alibi" 12, "none" 13)
# band 1: order .. periodic
unset label
unset arrow
unset object
set lmargin at screen 0.1284875184; set rmargin at screen 0.8751835536; set bmargin at screen 0.05541561713; set tmargin at screen 0.8664987406
set xrange [-0.5:8.5]
set label 1 "Overview: final accuracy, mean over 3 seeds [95% bootstrap interval]; rows ordered by how far they generalise" at screen 0.5, screen 0.9722921914 center font ",13"
set colorbox user origin screen 0.8898678414, screen 0.05541561713 size screen 0.01762114537, screen 0.8110831234
set label 2 "✗: not every seed reaches 0.99 on the training lengths (0.9 beyond them).   Grey, not learned: no seed learned the training lengths, so the longer ones say nothing" at screen 0.1284875184, screen 0.02518891688 left font ",10" textcolor rgb "#D55E00"
set x2tics ("train (8-32)" 0, "2x (64)" 1, "4x (128)" 2, "train (16-64)" 3, "2x (128)" 4, "4x (256)" 5, "train (16-64)" 6, "2x (128)" 7, "4x (256)" 8)
set label 3 "order" at first 1, screen 0.9244332494 center font ",11"
set label 4 "shift" at first 4, screen 0.9244332494 center font ",11"
set arrow from 2.5, graph 0 to 2.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 5 "periodic" at first 7, screen 0.9244332494 center font ",11"
set arrow from 5.5, graph 0 to 5.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 6 "1.000\n[1.00, 1.00]" at 0,0 center front textcolor rgb "#ffffff" font ",10"
set label 7 "1.000\n[1.00, 1.00]" at 1,0 center front textcolor rgb "#ffffff" font ",10"
set label 8 "0.993\n[0.98, 1.00]" at 2,0 center front textcolor rgb "#ffffff" font ",10"
set label 9 "1.000\n[1.00, 1.00]" at 3,0 center front textcolor rgb "#ffffff" font ",10"
set label 10 "1.000\n[1.00, 1.00]" at 4,0 center front textcolor rgb "#ffffff" font ",10"
set label 11 "1.000\n[1.00, 1.00]" at 5,0 center front textcolor rgb "#ffffff" font ",10"
set label 12 "0.663\n[0.65, 0.67]" at 6,0 center front textcolor rgb "#ffffff" font ",10"
set label 13 "✗" at 6.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 1 rect from 6.5,-0.5 to 7.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 14 "not learned" at 7,0 center front textcolor rgb "#111111" font ",10"
set object 2 rect from 7.5,-0.5 to 8.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 15 "not learned" at 8,0 center front textcolor rgb "#111111" font ",10"
set label 16 "1.000\n[1.00, 1.00]" at 0,1 center front textcolor rgb "#ffffff" font ",10"
set label 17 "1.000\n[1.00, 1.00]" at 1,1 center front textcolor rgb "#ffffff" font ",10"
set label 18 "1.000\n[1.00, 1.00]" at 2,1 center front textcolor rgb "#ffffff" font ",10"
set label 19 "1.000\n[1.00, 1.00]" at 3,1 center front textcolor rgb "#ffffff" font ",10"
set label 20 "0.982\n[0.96, 0.99]" at 4,1 center front textcolor rgb "#ffffff" font ",10"
set label 21 "0.932\n[0.89, 0.95]" at 5,1 center front textcolor rgb "#ffffff" font ",10"
set label 22 "✗" at 5.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 23 "0.686\n[0.62, 0.74]" at 6,1 center front textcolor rgb "#ffffff" font ",10"
set label 24 "✗" at 6.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 3 rect from 6.5,0.5 to 7.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 25 "not learned" at 7,1 center front textcolor rgb "#111111" font ",10"
set object 4 rect from 7.5,0.5 to 8.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 26 "not learned" at 8,1 center front textcolor rgb "#111111" font ",10"
set label 27 "1.000\n[1.00, 1.00]" at 0,2 center front textcolor rgb "#ffffff" font ",10"
set label 28 "0.763\n[0.75, 0.77]" at 1,2 center front textcolor rgb "#111111" font ",10"
set label 29 "✗" at 1.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set label 30 "0.723\n[0.69, 0.75]" at 2,2 center front textcolor rgb "#111111" font ",10"
set label 31 "✗" at 2.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set label 32 "1.000\n[1.00, 1.00]" at 3,2 center front textcolor rgb "#ffffff" font ",10"
set label 33 "1.000\n[1.00, 1.00]" at 4,2 center front textcolor rgb "#ffffff" font ",10"
set label 34 "1.000\n[1.00, 1.00]" at 5,2 center front textcolor rgb "#ffffff" font ",10"
set label 35 "0.772\n[0.74, 0.83]" at 6,2 center front textcolor rgb "#ffffff" font ",10"
set label 36 "✗" at 6.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 5 rect from 6.5,1.5 to 7.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 37 "not learned" at 7,2 center front textcolor rgb "#111111" font ",10"
set object 6 rect from 7.5,1.5 to 8.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 38 "not learned" at 8,2 center front textcolor rgb "#111111" font ",10"
set label 39 "1.000\n[1.00, 1.00]" at 0,3 center front textcolor rgb "#ffffff" font ",10"
set label 40 "1.000\n[1.00, 1.00]" at 1,3 center front textcolor rgb "#ffffff" font ",10"
set label 41 "1.000\n[1.00, 1.00]" at 2,3 center front textcolor rgb "#ffffff" font ",10"
set label 42 "0.931\n[0.81, 0.99]" at 3,3 center front textcolor rgb "#ffffff" font ",10"
set label 43 "✗" at 3.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set label 44 "0.673\n[0.61, 0.71]" at 4,3 center front textcolor rgb "#111111" font ",10"
set label 45 "✗" at 4.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set label 46 "0.587\n[0.56, 0.60]" at 5,3 center front textcolor rgb "#111111" font ",10"
set label 47 "✗" at 5.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set label 48 "0.620\n[0.61, 0.64]" at 6,3 center front textcolor rgb "#ffffff" font ",10"
set label 49 "✗" at 6.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 7 rect from 6.5,2.5 to 7.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 50 "not learned" at 7,3 center front textcolor rgb "#111111" font ",10"
set object 8 rect from 7.5,2.5 to 8.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 51 "not learned" at 8,3 center front textcolor rgb "#111111" font ",10"
set label 52 "1.000\n[1.00, 1.00]" at 0,4 center front textcolor rgb "#ffffff" font ",10"
set label 53 "0.900\n[0.87, 0.95]" at 1,4 center front textcolor rgb "#ffffff" font ",10"
set label 54 "✗" at 1.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set label 55 "0.738\n[0.73, 0.75]" at 2,4 center front textcolor rgb "#111111" font ",10"
set label 56 "✗" at 2.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set label 57 "1.000\n[1.00, 1.00]" at 3,4 center front textcolor rgb "#ffffff" font ",10"
set label 58 "0.883\n[0.78, 0.98]" at 4,4 center front textcolor rgb "#ffffff" font ",10"
set label 59 "✗" at 4.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set label 60 "0.726\n[0.66, 0.78]" at 5,4 center front textcolor rgb "#111111" font ",10"
set label 61 "✗" at 5.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set label 62 "0.713\n[0.71, 0.72]" at 6,4 center front textcolor rgb "#ffffff" font ",10"
set label 63 "✗" at 6.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 9 rect from 6.5,3.5 to 7.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 64 "not learned" at 7,4 center front textcolor rgb "#111111" font ",10"
set object 10 rect from 7.5,3.5 to 8.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 65 "not learned" at 8,4 center front textcolor rgb "#111111" font ",10"
set label 66 "0.999\n[1.00, 1.00]" at 0,5 center front textcolor rgb "#ffffff" font ",10"
set label 67 "0.850\n[0.73, 0.94]" at 1,5 center front textcolor rgb "#ffffff" font ",10"
set label 68 "✗" at 1.45,4.88 right front textcolor rgb "#D55E00" font ",12"
set label 69 "0.793\n[0.73, 0.87]" at 2,5 center front textcolor rgb "#ffffff" font ",10"
set label 70 "✗" at 2.45,4.88 right front textcolor rgb "#D55E00" font ",12"
set label 71 "0.675\n[0.66, 0.69]" at 3,5 center front textcolor rgb "#111111" font ",10"
set label 72 "✗" at 3.45,4.88 right front textcolor rgb "#D55E00" font ",12"
set object 11 rect from 3.5,4.5 to 4.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 73 "not learned" at 4,5 center front textcolor rgb "#111111" font ",10"
set object 12 rect from 4.5,4.5 to 5.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 74 "not learned" at 5,5 center front textcolor rgb "#111111" font ",10"
set label 75 "0.391\n[0.37, 0.42]" at 6,5 center front textcolor rgb "#111111" font ",10"
set label 76 "✗" at 6.45,4.88 right front textcolor rgb "#D55E00" font ",12"
set object 13 rect from 6.5,4.5 to 7.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 77 "not learned" at 7,5 center front textcolor rgb "#111111" font ",10"
set object 14 rect from 7.5,4.5 to 8.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 78 "not learned" at 8,5 center front textcolor rgb "#111111" font ",10"
set label 79 "1.000\n[1.00, 1.00]" at 0,6 center front textcolor rgb "#ffffff" font ",10"
set label 80 "0.828\n[0.72, 0.89]" at 1,6 center front textcolor rgb "#ffffff" font ",10"
set label 81 "✗" at 1.45,5.88 right front textcolor rgb "#D55E00" font ",12"
set label 82 "0.626\n[0.51, 0.68]" at 2,6 center front textcolor rgb "#111111" font ",10"
set label 83 "✗" at 2.45,5.88 right front textcolor rgb "#D55E00" font ",12"
set label 84 "1.000\n[1.00, 1.00]" at 3,6 center front textcolor rgb "#ffffff" font ",10"
set label 85 "0.728\n[0.73, 0.73]" at 4,6 center front textcolor rgb "#111111" font ",10"
set label 86 "✗" at 4.45,5.88 right front textcolor rgb "#D55E00" font ",12"
set label 87 "0.606\n[0.60, 0.61]" at 5,6 center front textcolor rgb "#111111" font ",10"
set label 88 "✗" at 5.45,5.88 right front textcolor rgb "#D55E00" font ",12"
set label 89 "0.719\n[0.59, 0.80]" at 6,6 center front textcolor rgb "#ffffff" font ",10"
set label 90 "✗" at 6.45,5.88 right front textcolor rgb "#D55E00" font ",12"
set object 15 rect from 6.5,5.5 to 7.5,6.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 91 "not learned" at 7,6 center front textcolor rgb "#111111" font ",10"
set object 16 rect from 7.5,5.5 to 8.5,6.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 92 "not learned" at 8,6 center front textcolor rgb "#111111" font ",10"
set label 93 "1.000\n[1.00, 1.00]" at 0,7 center front textcolor rgb "#ffffff" font ",10"
set label 94 "0.712\n[0.65, 0.83]" at 1,7 center front textcolor rgb "#111111" font ",10"
set label 95 "✗" at 1.45,6.88 right front textcolor rgb "#D55E00" font ",12"
set label 96 "0.461\n[0.37, 0.62]" at 2,7 center front textcolor rgb "#111111" font ",10"
set label 97 "✗" at 2.45,6.88 right front textcolor rgb "#D55E00" font ",12"
set label 98 "1.000\n[1.00, 1.00]" at 3,7 center front textcolor rgb "#ffffff" font ",10"
set label 99 "0.762\n[0.74, 0.79]" at 4,7 center front textcolor rgb "#111111" font ",10"
set label 100 "✗" at 4.45,6.88 right front textcolor rgb "#D55E00" font ",12"
set label 101 "0.630\n[0.62, 0.65]" at 5,7 center front textcolor rgb "#111111" font ",10"
set label 102 "✗" at 5.45,6.88 right front textcolor rgb "#D55E00" font ",12"
set label 103 "0.584\n[0.54, 0.63]" at 6,7 center front textcolor rgb "#111111" font ",10"
set label 104 "✗" at 6.45,6.88 right front textcolor rgb "#D55E00" font ",12"
set object 17 rect from 6.5,6.5 to 7.5,7.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 105 "not learned" at 7,7 center front textcolor rgb "#111111" font ",10"
set object 18 rect from 7.5,6.5 to 8.5,7.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 106 "not learned" at 8,7 center front textcolor rgb "#111111" font ",10"
set label 107 "1.000\n[1.00, 1.00]" at 0,8 center front textcolor rgb "#ffffff" font ",10"
set label 108 "0.708\n[0.68, 0.74]" at 1,8 center front textcolor rgb "#111111" font ",10"
set label 109 "✗" at 1.45,7.88 right front textcolor rgb "#D55E00" font ",12"
set label 110 "0.488\n[0.45, 0.56]" at 2,8 center front textcolor rgb "#111111" font ",10"
set label 111 "✗" at 2.45,7.88 right front textcolor rgb "#D55E00" font ",12"
set label 112 "1.000\n[1.00, 1.00]" at 3,8 center front textcolor rgb "#ffffff" font ",10"
set label 113 "0.743\n[0.74, 0.75]" at 4,8 center front textcolor rgb "#111111" font ",10"
set label 114 "✗" at 4.45,7.88 right front textcolor rgb "#D55E00" font ",12"
set label 115 "0.613\n[0.61, 0.62]" at 5,8 center front textcolor rgb "#111111" font ",10"
set label 116 "✗" at 5.45,7.88 right front textcolor rgb "#D55E00" font ",12"
set label 117 "0.685\n[0.67, 0.70]" at 6,8 center front textcolor rgb "#ffffff" font ",10"
set label 118 "✗" at 6.45,7.88 right front textcolor rgb "#D55E00" font ",12"
set object 19 rect from 6.5,7.5 to 7.5,8.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 119 "not learned" at 7,8 center front textcolor rgb "#111111" font ",10"
set object 20 rect from 7.5,7.5 to 8.5,8.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 120 "not learned" at 8,8 center front textcolor rgb "#111111" font ",10"
set label 121 "1.000\n[1.00, 1.00]" at 0,9 center front textcolor rgb "#ffffff" font ",10"
set label 122 "0.600\n[0.48, 0.75]" at 1,9 center front textcolor rgb "#111111" font ",10"
set label 123 "✗" at 1.45,8.88 right front textcolor rgb "#D55E00" font ",12"
set label 124 "0.487\n[0.38, 0.62]" at 2,9 center front textcolor rgb "#111111" font ",10"
set label 125 "✗" at 2.45,8.88 right front textcolor rgb "#D55E00" font ",12"
set label 126 "1.000\n[1.00, 1.00]" at 3,9 center front textcolor rgb "#ffffff" font ",10"
set label 127 "0.732\n[0.73, 0.73]" at 4,9 center front textcolor rgb "#111111" font ",10"
set label 128 "✗" at 4.45,8.88 right front textcolor rgb "#D55E00" font ",12"
set label 129 "0.611\n[0.61, 0.61]" at 5,9 center front textcolor rgb "#111111" font ",10"
set label 130 "✗" at 5.45,8.88 right front textcolor rgb "#D55E00" font ",12"
set label 131 "0.844\n[0.83, 0.86]" at 6,9 center front textcolor rgb "#ffffff" font ",10"
set label 132 "✗" at 6.45,8.88 right front textcolor rgb "#D55E00" font ",12"
set object 21 rect from 6.5,8.5 to 7.5,9.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 133 "not learned" at 7,9 center front textcolor rgb "#111111" font ",10"
set object 22 rect from 7.5,8.5 to 8.5,9.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 134 "not learned" at 8,9 center front textcolor rgb "#111111" font ",10"
set label 135 "0.500\n[0.50, 0.50]" at 0,10 center front textcolor rgb "#111111" font ",10"
set label 136 "✗" at 0.45,9.88 right front textcolor rgb "#D55E00" font ",12"
set object 23 rect from 0.5,9.5 to 1.5,10.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 137 "not learned" at 1,10 center front textcolor rgb "#111111" font ",10"
set object 24 rect from 1.5,9.5 to 2.5,10.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 138 "not learned" at 2,10 center front textcolor rgb "#111111" font ",10"
set label 139 "0.652\n[0.64, 0.66]" at 3,10 center front textcolor rgb "#111111" font ",10"
set label 140 "✗" at 3.45,9.88 right front textcolor rgb "#D55E00" font ",12"
set object 25 rect from 3.5,9.5 to 4.5,10.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 141 "not learned" at 4,10 center front textcolor rgb "#111111" font ",10"
set object 26 rect from 4.5,9.5 to 5.5,10.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 142 "not learned" at 5,10 center front textcolor rgb "#111111" font ",10"
set label 143 "0.893\n[0.88, 0.91]" at 6,10 center front textcolor rgb "#ffffff" font ",10"
set label 144 "✗" at 6.45,9.88 right front textcolor rgb "#D55E00" font ",12"
set object 27 rect from 6.5,9.5 to 7.5,10.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 145 "not learned" at 7,10 center front textcolor rgb "#111111" font ",10"
set object 28 rect from 7.5,9.5 to 8.5,10.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 146 "not learned" at 8,10 center front textcolor rgb "#111111" font ",10"
set label 147 "0.500\n[0.50, 0.50]" at 0,11 center front textcolor rgb "#111111" font ",10"
set label 148 "✗" at 0.45,10.88 right front textcolor rgb "#D55E00" font ",12"
set object 29 rect from 0.5,10.5 to 1.5,11.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 149 "not learned" at 1,11 center front textcolor rgb "#111111" font ",10"
set object 30 rect from 1.5,10.5 to 2.5,11.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 150 "not learned" at 2,11 center front textcolor rgb "#111111" font ",10"
set label 151 "0.596\n[0.59, 0.60]" at 3,11 center front textcolor rgb "#111111" font ",10"
set label 152 "✗" at 3.45,10.88 right front textcolor rgb "#D55E00" font ",12"
set object 31 rect from 3.5,10.5 to 4.5,11.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 153 "not learned" at 4,11 center front textcolor rgb "#111111" font ",10"
set object 32 rect from 4.5,10.5 to 5.5,11.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 154 "not learned" at 5,11 center front textcolor rgb "#111111" font ",10"
set label 155 "0.856\n[0.84, 0.87]" at 6,11 center front textcolor rgb "#ffffff" font ",10"
set label 156 "✗" at 6.45,10.88 right front textcolor rgb "#D55E00" font ",12"
set object 33 rect from 6.5,10.5 to 7.5,11.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 157 "not learned" at 7,11 center front textcolor rgb "#111111" font ",10"
set object 34 rect from 7.5,10.5 to 8.5,11.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 158 "not learned" at 8,11 center front textcolor rgb "#111111" font ",10"
set label 159 "0.500\n[0.50, 0.50]" at 0,12 center front textcolor rgb "#111111" font ",10"
set label 160 "✗" at 0.45,11.88 right front textcolor rgb "#D55E00" font ",12"
set object 35 rect from 0.5,11.5 to 1.5,12.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 161 "not learned" at 1,12 center front textcolor rgb "#111111" font ",10"
set object 36 rect from 1.5,11.5 to 2.5,12.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 162 "not learned" at 2,12 center front textcolor rgb "#111111" font ",10"
set label 163 "0.609\n[0.60, 0.61]" at 3,12 center front textcolor rgb "#111111" font ",10"
set label 164 "✗" at 3.45,11.88 right front textcolor rgb "#D55E00" font ",12"
set object 37 rect from 3.5,11.5 to 4.5,12.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 165 "not learned" at 4,12 center front textcolor rgb "#111111" font ",10"
set object 38 rect from 4.5,11.5 to 5.5,12.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 166 "not learned" at 5,12 center front textcolor rgb "#111111" font ",10"
set label 167 "0.759\n[0.76, 0.76]" at 6,12 center front textcolor rgb "#ffffff" font ",10"
set label 168 "✗" at 6.45,11.88 right front textcolor rgb "#D55E00" font ",12"
set object 39 rect from 6.5,11.5 to 7.5,12.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 169 "not learned" at 7,12 center front textcolor rgb "#111111" font ",10"
set object 40 rect from 7.5,11.5 to 8.5,12.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 170 "not learned" at 8,12 center front textcolor rgb "#111111" font ",10"
set label 171 "0.500\n[0.50, 0.50]" at 0,13 center front textcolor rgb "#111111" font ",10"
set label 172 "✗" at 0.45,12.88 right front textcolor rgb "#D55E00" font ",12"
set object 41 rect from 0.5,12.5 to 1.5,13.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 173 "not learned" at 1,13 center front textcolor rgb "#111111" font ",10"
set object 42 rect from 1.5,12.5 to 2.5,13.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 174 "not learned" at 2,13 center front textcolor rgb "#111111" font ",10"
set label 175 "0.562\n[0.56, 0.56]" at 3,13 center front textcolor rgb "#111111" font ",10"
set label 176 "✗" at 3.45,12.88 right front textcolor rgb "#D55E00" font ",12"
set object 43 rect from 3.5,12.5 to 4.5,13.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 177 "not learned" at 4,13 center front textcolor rgb "#111111" font ",10"
set object 44 rect from 4.5,12.5 to 5.5,13.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 178 "not learned" at 5,13 center front textcolor rgb "#111111" font ",10"
set label 179 "0.337\n[0.33, 0.34]" at 6,13 center front textcolor rgb "#111111" font ",10"
set label 180 "✗" at 6.45,12.88 right front textcolor rgb "#D55E00" font ",12"
set object 45 rect from 6.5,12.5 to 7.5,13.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 181 "not learned" at 7,13 center front textcolor rgb "#111111" font ",10"
set object 46 rect from 7.5,12.5 to 8.5,13.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 182 "not learned" at 8,13 center front textcolor rgb "#111111" font ",10"
plot "overview.dat" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette notitle
unset multiplot
set output
}
