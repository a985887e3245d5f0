# overview.gp: overview of the study: final accuracy per series, task and length
# Written by ordo; edit freely and redraw with: gnuplot overview.gp (writes overview.png and overview.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1965,414 font "sans,11" noenhanced
} else {
  set terminal svg size 1965,414 font "sans,11" noenhanced background "#ffffff"
}
set output "overview." . format
set multiplot
set yrange [1.5:-0.5]
set cbrange [0:1]
set palette defined (0 "#f7fbff", 0.35 "#9ecae1", 0.7 "#3182bd", 1 "#08306b")
set cblabel "score: 0 = chance (or the commonest answer),\n1 = accuracy 1" offset -0.5,0
set cbtics 0,0.25
unset key
set tics scale 0
set tics front
unset xtics
set ytics ("rope" 0, "none" 1)
# band 1: flipflop .. copy
unset label
unset arrow
unset object
set lmargin at screen 0.05089058524; set rmargin at screen 0.9134860051; set bmargin at screen 0.3140096618; set tmargin at screen 0.7439613527
set xrange [-0.5:14.5]
set label 1 "Overview: final accuracy, mean over 3 seeds [95% bootstrap interval]; rows ordered by how far they generalise" at screen 0.5, screen 0.9468599034 center font ",13"
set colorbox user origin screen 0.9236641221, screen 0.3140096618 size screen 0.01221374046, screen 0.4299516908
set label 2 "✗: not every seed reaches 0.99 on the training lengths (0.9 beyond them).   Grey, not learned: no seed learned the training lengths, so the longer ones say nothing" at screen 0.05089058524, screen 0.04830917874 left font ",10" textcolor rgb "#D55E00"
set x2tics ("train (16-64)" 0, "2x (128)" 1, "4x (256)" 2, "train (8-32)" 3, "2x (64)" 4, "4x (128)" 5, "train (16-64)" 6, "2x (128)" 7, "4x (256)" 8, "train (16-64)" 9, "2x (128)" 10, "4x (256)" 11, "train (8-32)" 12, "2x (64)" 13, "4x (128)" 14)
set label 3 "flipflop" at first 1, screen 0.8550724638 center font ",11"
set label 4 "order" at first 4, screen 0.8550724638 center font ",11"
set arrow from 2.5, graph 0 to 2.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 5 "shift" at first 7, screen 0.8550724638 center font ",11"
set arrow from 5.5, graph 0 to 5.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 6 "periodic" at first 10, screen 0.8550724638 center font ",11"
set arrow from 8.5, graph 0 to 8.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 7 "copy" at first 13, screen 0.8550724638 center font ",11"
set arrow from 11.5, graph 0 to 11.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 8 "1.000\n[1.00, 1.00]" at 0,0 center front textcolor rgb "#ffffff" font ",10"
set label 9 "0.999\n[1.00, 1.00]" at 1,0 center front textcolor rgb "#ffffff" font ",10"
set label 10 "0.965\n[0.95, 0.97]" at 2,0 center front textcolor rgb "#ffffff" font ",10"
set label 11 "1.000\n[1.00, 1.00]" at 3,0 center front textcolor rgb "#ffffff" font ",10"
set label 12 "1.000\n[1.00, 1.00]" at 4,0 center front textcolor rgb "#ffffff" font ",10"
set label 13 "1.000\n[1.00, 1.00]" at 5,0 center front textcolor rgb "#ffffff" font ",10"
set label 14 "1.000\n[1.00, 1.00]" at 6,0 center front textcolor rgb "#ffffff" font ",10"
set label 15 "1.000\n[1.00, 1.00]" at 7,0 center front textcolor rgb "#ffffff" font ",10"
set label 16 "0.981\n[0.94, 1.00]" at 8,0 center front textcolor rgb "#ffffff" font ",10"
set label 17 "0.681\n[0.67, 0.70]" at 9,0 center front textcolor rgb "#ffffff" font ",10"
set label 18 "✗" at 9.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 1 rect from 9.5,-0.5 to 10.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 19 "not learned" at 10,0 center front textcolor rgb "#111111" font ",10"
set object 2 rect from 10.5,-0.5 to 11.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 20 "not learned" at 11,0 center front textcolor rgb "#111111" font ",10"
set label 21 "0.684\n[0.54, 0.79]" at 12,0 center front textcolor rgb "#ffffff" font ",10"
set label 22 "✗" at 12.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 3 rect from 12.5,-0.5 to 13.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 23 "not learned" at 13,0 center front textcolor rgb "#111111" font ",10"
set object 4 rect from 13.5,-0.5 to 14.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 24 "not learned" at 14,0 center front textcolor rgb "#111111" font ",10"
set label 25 "1.000\n[1.00, 1.00]" at 0,1 center front textcolor rgb "#ffffff" font ",10"
set label 26 "0.999\n[1.00, 1.00]" at 1,1 center front textcolor rgb "#ffffff" font ",10"
set label 27 "0.964\n[0.94, 0.99]" at 2,1 center front textcolor rgb "#ffffff" font ",10"
set label 28 "1.000\n[1.00, 1.00]" at 3,1 center front textcolor rgb "#ffffff" font ",10"
set label 29 "1.000\n[1.00, 1.00]" at 4,1 center front textcolor rgb "#ffffff" font ",10"
set label 30 "1.000\n[1.00, 1.00]" at 5,1 center front textcolor rgb "#ffffff" font ",10"
set label 31 "0.671\n[0.62, 0.70]" at 6,1 center front textcolor rgb "#111111" font ",10"
set label 32 "✗" at 6.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 5 rect from 6.5,0.5 to 7.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 33 "not learned" at 7,1 center front textcolor rgb "#111111" font ",10"
set object 6 rect from 7.5,0.5 to 8.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 34 "not learned" at 8,1 center front textcolor rgb "#111111" font ",10"
set label 35 "0.459\n[0.46, 0.47]" at 9,1 center front textcolor rgb "#111111" font ",10"
set label 36 "✗" at 9.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 7 rect from 9.5,0.5 to 10.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 37 "not learned" at 10,1 center front textcolor rgb "#111111" font ",10"
set object 8 rect from 10.5,0.5 to 11.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 38 "not learned" at 11,1 center front textcolor rgb "#111111" font ",10"
set label 39 "0.757\n[0.74, 0.77]" at 12,1 center front textcolor rgb "#ffffff" font ",10"
set label 40 "✗" at 12.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 9 rect from 12.5,0.5 to 13.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 41 "not learned" at 13,1 center front textcolor rgb "#111111" font ",10"
set object 10 rect from 13.5,0.5 to 14.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 42 "not learned" at 14,1 center front textcolor rgb "#111111" font ",10"
plot "overview.dat" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette notitle
unset multiplot
set output
}
