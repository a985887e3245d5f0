# overview.gp: overview of the study: final accuracy per series, task and length
# Written by ordo; edit freely and redraw with: gnuplot overview.gp (writes overview.png and overview.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1302,463 font "sans,11" noenhanced
} else {
  set terminal svg size 1302,463 font "sans,11" noenhanced background "#ffffff"
}
set output "overview." . format
set multiplot
set yrange [5.5:-0.5]
set cbrange [0:1]
set palette defined (0 "#f7fbff", 0.35 "#9ecae1", 0.7 "#3182bd", 1 "#08306b")
set cblabel "score: 0 = chance (or the commonest answer),\n1 = accuracy 1" offset -0.5,0
set cbtics 0,0.25
unset key
set tics scale 0
set tics front
unset xtics
set ytics ("rope" 0, "t5" 1, "learned" 2, "sinusoidal" 3, "alibi" 4, "none" 5)
# band 1: order .. periodic
unset label
unset arrow
unset object
set lmargin at screen 0.08832565284; set rmargin at screen 0.8694316436; set bmargin at screen 0.1749460043; set tmargin at screen 0.7710583153
set xrange [-0.5:8.5]
set label 1 "Overview: final accuracy, mean over 3 seeds [95% bootstrap interval]; rows ordered by how far they generalise" at screen 0.5, screen 0.9524838013 center font ",13"
set colorbox user origin screen 0.8847926267, screen 0.1749460043 size screen 0.01843317972, screen 0.596112311
set label 2 "✗: not every seed reaches 0.99 on the training lengths (0.9 beyond them).   Grey, not learned: no seed learned the training lengths, so the longer ones say nothing" at screen 0.08832565284, screen 0.04319654428 left font ",10" textcolor rgb "#D55E00"
set x2tics ("train (8-32)" 0, "2x (64)" 1, "4x (128)" 2, "train (16-64)" 3, "2x (128)" 4, "4x (256)" 5, "train (16-64)" 6, "2x (128)" 7, "4x (256)" 8)
set label 3 "order" at first 1, screen 0.8704103672 center font ",11"
set label 4 "shift" at first 4, screen 0.8704103672 center font ",11"
set arrow from 2.5, graph 0 to 2.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 5 "periodic" at first 7, screen 0.8704103672 center font ",11"
set arrow from 5.5, graph 0 to 5.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 6 "1.000\n[1.00, 1.00]" at 0,0 center front textcolor rgb "#ffffff" font ",10"
set label 7 "0.763\n[0.75, 0.77]" at 1,0 center front textcolor rgb "#111111" font ",10"
set label 8 "✗" at 1.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set label 9 "0.723\n[0.69, 0.75]" at 2,0 center front textcolor rgb "#111111" font ",10"
set label 10 "✗" at 2.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set label 11 "1.000\n[1.00, 1.00]" at 3,0 center front textcolor rgb "#ffffff" font ",10"
set label 12 "1.000\n[1.00, 1.00]" at 4,0 center front textcolor rgb "#ffffff" font ",10"
set label 13 "1.000\n[1.00, 1.00]" at 5,0 center front textcolor rgb "#ffffff" font ",10"
set label 14 "0.772\n[0.74, 0.83]" at 6,0 center front textcolor rgb "#ffffff" font ",10"
set label 15 "✗" at 6.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 1 rect from 6.5,-0.5 to 7.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 16 "not learned" at 7,0 center front textcolor rgb "#111111" font ",10"
set object 2 rect from 7.5,-0.5 to 8.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 17 "not learned" at 8,0 center front textcolor rgb "#111111" font ",10"
set label 18 "1.000\n[1.00, 1.00]" at 0,1 center front textcolor rgb "#ffffff" font ",10"
set label 19 "0.900\n[0.87, 0.95]" at 1,1 center front textcolor rgb "#ffffff" font ",10"
set label 20 "✗" at 1.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 21 "0.738\n[0.73, 0.75]" at 2,1 center front textcolor rgb "#111111" font ",10"
set label 22 "✗" at 2.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 23 "1.000\n[1.00, 1.00]" at 3,1 center front textcolor rgb "#ffffff" font ",10"
set label 24 "0.883\n[0.78, 0.98]" at 4,1 center front textcolor rgb "#ffffff" font ",10"
set label 25 "✗" at 4.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 26 "0.726\n[0.66, 0.78]" at 5,1 center front textcolor rgb "#111111" font ",10"
set label 27 "✗" at 5.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 28 "0.713\n[0.71, 0.72]" at 6,1 center front textcolor rgb "#ffffff" font ",10"
set label 29 "✗" at 6.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 3 rect from 6.5,0.5 to 7.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 30 "not learned" at 7,1 center front textcolor rgb "#111111" font ",10"
set object 4 rect from 7.5,0.5 to 8.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 31 "not learned" at 8,1 center front textcolor rgb "#111111" font ",10"
set label 32 "1.000\n[1.00, 1.00]" at 0,2 center front textcolor rgb "#ffffff" font ",10"
set label 33 "0.828\n[0.72, 0.89]" at 1,2 center front textcolor rgb "#ffffff" font ",10"
set label 34 "✗" at 1.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set label 35 "0.626\n[0.51, 0.68]" at 2,2 center front textcolor rgb "#111111" font ",10"
set label 36 "✗" at 2.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set label 37 "1.000\n[1.00, 1.00]" at 3,2 center front textcolor rgb "#ffffff" font ",10"
set label 38 "0.728\n[0.73, 0.73]" at 4,2 center front textcolor rgb "#111111" font ",10"
set label 39 "✗" at 4.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set label 40 "0.606\n[0.60, 0.61]" at 5,2 center front textcolor rgb "#111111" font ",10"
set label 41 "✗" at 5.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set label 42 "0.719\n[0.59, 0.80]" at 6,2 center front textcolor rgb "#ffffff" font ",10"
set label 43 "✗" at 6.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 5 rect from 6.5,1.5 to 7.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 44 "not learned" at 7,2 center front textcolor rgb "#111111" font ",10"
set object 6 rect from 7.5,1.5 to 8.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 45 "not learned" at 8,2 center front textcolor rgb "#111111" font ",10"
set label 46 "1.000\n[1.00, 1.00]" at 0,3 center front textcolor rgb "#ffffff" font ",10"
set label 47 "0.712\n[0.65, 0.83]" at 1,3 center front textcolor rgb "#111111" font ",10"
set label 48 "✗" at 1.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set label 49 "0.461\n[0.37, 0.62]" at 2,3 center front textcolor rgb "#111111" font ",10"
set label 50 "✗" at 2.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set label 51 "1.000\n[1.00, 1.00]" at 3,3 center front textcolor rgb "#ffffff" font ",10"
set label 52 "0.762\n[0.74, 0.79]" at 4,3 center front textcolor rgb "#111111" font ",10"
set label 53 "✗" at 4.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set label 54 "0.630\n[0.62, 0.65]" at 5,3 center front textcolor rgb "#111111" font ",10"
set label 55 "✗" at 5.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set label 56 "0.584\n[0.54, 0.63]" at 6,3 center front textcolor rgb "#111111" font ",10"
set label 57 "✗" at 6.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 7 rect from 6.5,2.5 to 7.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 58 "not learned" at 7,3 center front textcolor rgb "#111111" font ",10"
set object 8 rect from 7.5,2.5 to 8.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 59 "not learned" at 8,3 center front textcolor rgb "#111111" font ",10"
set label 60 "0.500\n[0.50, 0.50]" at 0,4 center front textcolor rgb "#111111" font ",10"
set label 61 "✗" at 0.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 9 rect from 0.5,3.5 to 1.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 62 "not learned" at 1,4 center front textcolor rgb "#111111" font ",10"
set object 10 rect from 1.5,3.5 to 2.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 63 "not learned" at 2,4 center front textcolor rgb "#111111" font ",10"
set label 64 "0.609\n[0.60, 0.61]" at 3,4 center front textcolor rgb "#111111" font ",10"
set label 65 "✗" at 3.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 11 rect from 3.5,3.5 to 4.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 66 "not learned" at 4,4 center front textcolor rgb "#111111" font ",10"
set object 12 rect from 4.5,3.5 to 5.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 67 "not learned" at 5,4 center front textcolor rgb "#111111" font ",10"
set label 68 "0.759\n[0.76, 0.76]" at 6,4 center front textcolor rgb "#ffffff" font ",10"
set label 69 "✗" at 6.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 13 rect from 6.5,3.5 to 7.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 70 "not learned" at 7,4 center front textcolor rgb "#111111" font ",10"
set object 14 rect from 7.5,3.5 to 8.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 71 "not learned" at 8,4 center front textcolor rgb "#111111" font ",10"
set label 72 "0.500\n[0.50, 0.50]" at 0,5 center front textcolor rgb "#111111" font ",10"
set label 73 "✗" at 0.45,4.88 right front textcolor rgb "#D55E00" font ",12"
set object 15 rect from 0.5,4.5 to 1.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 74 "not learned" at 1,5 center front textcolor rgb "#111111" font ",10"
set object 16 rect from 1.5,4.5 to 2.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 75 "not learned" at 2,5 center front textcolor rgb "#111111" font ",10"
set label 76 "0.562\n[0.56, 0.56]" at 3,5 center front textcolor rgb "#111111" font ",10"
set label 77 "✗" at 3.45,4.88 right front textcolor rgb "#D55E00" font ",12"
set object 17 rect from 3.5,4.5 to 4.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 78 "not learned" at 4,5 center front textcolor rgb "#111111" font ",10"
set object 18 rect from 4.5,4.5 to 5.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 79 "not learned" at 5,5 center front textcolor rgb "#111111" font ",10"
set label 80 "0.337\n[0.33, 0.34]" at 6,5 center front textcolor rgb "#111111" font ",10"
set label 81 "✗" at 6.45,4.88 right front textcolor rgb "#D55E00" font ",12"
set object 19 rect from 6.5,4.5 to 7.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 82 "not learned" at 7,5 center front textcolor rgb "#111111" font ",10"
set object 20 rect from 7.5,4.5 to 8.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 83 "not learned" at 8,5 center front textcolor rgb "#111111" font ",10"
plot "overview.dat" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette notitle
unset multiplot
set output
}
