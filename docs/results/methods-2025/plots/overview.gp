# overview.gp: overview of the study: final accuracy per series, task and length
# Written by ordo; edit freely and redraw with: gnuplot overview.gp (writes overview.png and overview.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 2002,518 font "sans,11" noenhanced
} else {
  set terminal svg size 2002,518 font "sans,11" noenhanced background "#ffffff"
}
set output "overview." . format
set multiplot
set yrange [7.5:-0.5]
set cbrange [0:1]
set palette defined (0 "#f7fbff", 0.35 "#9ecae1", 0.7 "#3182bd", 1 "#08306b")
set cblabel "score: 0 = chance (or the commonest answer),\n1 = accuracy 1" offset -0.5,0
set cbtics 0,0.25
unset key
set tics scale 0
set tics front
unset xtics
set ytics ("path" 0, "pope" 1, "rope" 2, "rope+none" 3, "stickbreaking" 4, "alibi" 5, "fox" 6, "none" 7)
# band 1: flipflop .. copy
unset label
unset arrow
unset object
set lmargin at screen 0.06843156843; set rmargin at screen 0.9150849151; set bmargin at screen 0.08494208494; set tmargin at screen 0.7953667954
set xrange [-0.5:14.5]
set label 1 "Overview: final accuracy, mean over 3 seeds [95% bootstrap interval]; rows ordered by how far they generalise" at screen 0.5, screen 0.9575289575 center font ",13"
set colorbox user origin screen 0.9250749251, screen 0.08494208494 size screen 0.01198801199, screen 0.7104247104
set label 2 "✗: not every seed reaches 0.99 on the training lengths (0.9 beyond them).   Grey, not learned: no seed learned the training lengths, so the longer ones say nothing" at screen 0.06843156843, screen 0.03861003861 left font ",10" textcolor rgb "#D55E00"
set x2tics ("train (16-64)" 0, "2x (128)" 1, "4x (256)" 2, "train (8-32)" 3, "2x (64)" 4, "4x (128)" 5, "train (16-64)" 6, "2x (128)" 7, "4x (256)" 8, "train (16-64)" 9, "2x (128)" 10, "4x (256)" 11, "train (8-32)" 12, "2x (64)" 13, "4x (128)" 14)
set label 3 "flipflop" at first 1, screen 0.8841698842 center font ",11"
set label 4 "order" at first 4, screen 0.8841698842 center font ",11"
set arrow from 2.5, graph 0 to 2.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 5 "shift" at first 7, screen 0.8841698842 center font ",11"
set arrow from 5.5, graph 0 to 5.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 6 "periodic" at first 10, screen 0.8841698842 center font ",11"
set arrow from 8.5, graph 0 to 8.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 7 "copy" at first 13, screen 0.8841698842 center font ",11"
set arrow from 11.5, graph 0 to 11.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 8 "1.000\n[1.00, 1.00]" at 0,0 center front textcolor rgb "#ffffff" font ",10"
set label 9 "1.000\n[1.00, 1.00]" at 1,0 center front textcolor rgb "#ffffff" font ",10"
set label 10 "1.000\n[1.00, 1.00]" at 2,0 center front textcolor rgb "#ffffff" font ",10"
set label 11 "1.000\n[1.00, 1.00]" at 3,0 center front textcolor rgb "#ffffff" font ",10"
set label 12 "1.000\n[1.00, 1.00]" at 4,0 center front textcolor rgb "#ffffff" font ",10"
set label 13 "1.000\n[1.00, 1.00]" at 5,0 center front textcolor rgb "#ffffff" font ",10"
set label 14 "0.961\n[0.92, 1.00]" at 6,0 center front textcolor rgb "#ffffff" font ",10"
set label 15 "✗" at 6.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set label 16 "0.950\n[0.90, 1.00]" at 7,0 center front textcolor rgb "#ffffff" font ",10"
set label 17 "0.932\n[0.87, 0.99]" at 8,0 center front textcolor rgb "#ffffff" font ",10"
set label 18 "✗" at 8.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set label 19 "0.751\n[0.74, 0.76]" at 9,0 center front textcolor rgb "#ffffff" font ",10"
set label 20 "✗" at 9.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 1 rect from 9.5,-0.5 to 10.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 21 "not learned" at 10,0 center front textcolor rgb "#111111" font ",10"
set object 2 rect from 10.5,-0.5 to 11.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 22 "not learned" at 11,0 center front textcolor rgb "#111111" font ",10"
set label 23 "0.916\n[0.88, 0.93]" at 12,0 center front textcolor rgb "#ffffff" font ",10"
set label 24 "✗" at 12.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 3 rect from 12.5,-0.5 to 13.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 25 "not learned" at 13,0 center front textcolor rgb "#111111" font ",10"
set object 4 rect from 13.5,-0.5 to 14.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 26 "not learned" at 14,0 center front textcolor rgb "#111111" font ",10"
set label 27 "1.000\n[1.00, 1.00]" at 0,1 center front textcolor rgb "#ffffff" font ",10"
set label 28 "0.997\n[0.99, 1.00]" at 1,1 center front textcolor rgb "#ffffff" font ",10"
set label 29 "0.992\n[0.99, 0.99]" at 2,1 center front textcolor rgb "#ffffff" font ",10"
set label 30 "1.000\n[1.00, 1.00]" at 3,1 center front textcolor rgb "#ffffff" font ",10"
set label 31 "1.000\n[1.00, 1.00]" at 4,1 center front textcolor rgb "#ffffff" font ",10"
set label 32 "0.944\n[0.93, 0.96]" at 5,1 center front textcolor rgb "#ffffff" font ",10"
set label 33 "1.000\n[1.00, 1.00]" at 6,1 center front textcolor rgb "#ffffff" font ",10"
set label 34 "0.997\n[1.00, 1.00]" at 7,1 center front textcolor rgb "#ffffff" font ",10"
set label 35 "0.953\n[0.94, 0.97]" at 8,1 center front textcolor rgb "#ffffff" font ",10"
set label 36 "0.541\n[0.53, 0.55]" at 9,1 center front textcolor rgb "#111111" font ",10"
set label 37 "✗" at 9.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 5 rect from 9.5,0.5 to 10.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 38 "not learned" at 10,1 center front textcolor rgb "#111111" font ",10"
set object 6 rect from 10.5,0.5 to 11.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 39 "not learned" at 11,1 center front textcolor rgb "#111111" font ",10"
set label 40 "0.621\n[0.59, 0.68]" at 12,1 center front textcolor rgb "#ffffff" font ",10"
set label 41 "✗" at 12.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 7 rect from 12.5,0.5 to 13.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 42 "not learned" at 13,1 center front textcolor rgb "#111111" font ",10"
set object 8 rect from 13.5,0.5 to 14.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 43 "not learned" at 14,1 center front textcolor rgb "#111111" font ",10"
set label 44 "1.000\n[1.00, 1.00]" at 0,2 center front textcolor rgb "#ffffff" font ",10"
set label 45 "0.999\n[1.00, 1.00]" at 1,2 center front textcolor rgb "#ffffff" font ",10"
set label 46 "0.970\n[0.96, 0.98]" at 2,2 center front textcolor rgb "#ffffff" font ",10"
set label 47 "1.000\n[1.00, 1.00]" at 3,2 center front textcolor rgb "#ffffff" font ",10"
set label 48 "1.000\n[1.00, 1.00]" at 4,2 center front textcolor rgb "#ffffff" font ",10"
set label 49 "0.997\n[0.99, 1.00]" at 5,2 center front textcolor rgb "#ffffff" font ",10"
set label 50 "1.000\n[1.00, 1.00]" at 6,2 center front textcolor rgb "#ffffff" font ",10"
set label 51 "1.000\n[1.00, 1.00]" at 7,2 center front textcolor rgb "#ffffff" font ",10"
set label 52 "0.912\n[0.88, 0.94]" at 8,2 center front textcolor rgb "#ffffff" font ",10"
set label 53 "✗" at 8.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set label 54 "0.660\n[0.65, 0.67]" at 9,2 center front textcolor rgb "#ffffff" font ",10"
set label 55 "✗" at 9.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 9 rect from 9.5,1.5 to 10.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 56 "not learned" at 10,2 center front textcolor rgb "#111111" font ",10"
set object 10 rect from 10.5,1.5 to 11.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 57 "not learned" at 11,2 center front textcolor rgb "#111111" font ",10"
set label 58 "0.784\n[0.65, 0.90]" at 12,2 center front textcolor rgb "#ffffff" font ",10"
set label 59 "✗" at 12.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 11 rect from 12.5,1.5 to 13.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 60 "not learned" at 13,2 center front textcolor rgb "#111111" font ",10"
set object 12 rect from 13.5,1.5 to 14.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 61 "not learned" at 14,2 center front textcolor rgb "#111111" font ",10"
set label 62 "1.000\n[1.00, 1.00]" at 0,3 center front textcolor rgb "#ffffff" font ",10"
set label 63 "0.998\n[1.00, 1.00]" at 1,3 center front textcolor rgb "#ffffff" font ",10"
set label 64 "0.961\n[0.95, 0.97]" at 2,3 center front textcolor rgb "#ffffff" font ",10"
set label 65 "1.000\n[1.00, 1.00]" at 3,3 center front textcolor rgb "#ffffff" font ",10"
set label 66 "1.000\n[1.00, 1.00]" at 4,3 center front textcolor rgb "#ffffff" font ",10"
set label 67 "1.000\n[1.00, 1.00]" at 5,3 center front textcolor rgb "#ffffff" font ",10"
set label 68 "1.000\n[1.00, 1.00]" at 6,3 center front textcolor rgb "#ffffff" font ",10"
set label 69 "1.000\n[1.00, 1.00]" at 7,3 center front textcolor rgb "#ffffff" font ",10"
set label 70 "0.904\n[0.88, 0.92]" at 8,3 center front textcolor rgb "#ffffff" font ",10"
set label 71 "✗" at 8.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set label 72 "0.612\n[0.59, 0.64]" at 9,3 center front textcolor rgb "#ffffff" font ",10"
set label 73 "✗" at 9.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 13 rect from 9.5,2.5 to 10.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 74 "not learned" at 10,3 center front textcolor rgb "#111111" font ",10"
set object 14 rect from 10.5,2.5 to 11.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 75 "not learned" at 11,3 center front textcolor rgb "#111111" font ",10"
set label 76 "0.776\n[0.76, 0.80]" at 12,3 center front textcolor rgb "#ffffff" font ",10"
set label 77 "✗" at 12.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 15 rect from 12.5,2.5 to 13.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 78 "not learned" at 13,3 center front textcolor rgb "#111111" font ",10"
set object 16 rect from 13.5,2.5 to 14.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 79 "not learned" at 14,3 center front textcolor rgb "#111111" font ",10"
set label 80 "1.000\n[1.00, 1.00]" at 0,4 center front textcolor rgb "#ffffff" font ",10"
set label 81 "1.000\n[1.00, 1.00]" at 1,4 center front textcolor rgb "#ffffff" font ",10"
set label 82 "1.000\n[1.00, 1.00]" at 2,4 center front textcolor rgb "#ffffff" font ",10"
set label 83 "1.000\n[1.00, 1.00]" at 3,4 center front textcolor rgb "#ffffff" font ",10"
set label 84 "1.000\n[1.00, 1.00]" at 4,4 center front textcolor rgb "#ffffff" font ",10"
set label 85 "1.000\n[1.00, 1.00]" at 5,4 center front textcolor rgb "#ffffff" font ",10"
set label 86 "0.790\n[0.70, 0.96]" at 6,4 center front textcolor rgb "#ffffff" font ",10"
set label 87 "✗" at 6.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 17 rect from 6.5,3.5 to 7.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 88 "not learned" at 7,4 center front textcolor rgb "#111111" font ",10"
set object 18 rect from 7.5,3.5 to 8.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 89 "not learned" at 8,4 center front textcolor rgb "#111111" font ",10"
set label 90 "0.550\n[0.54, 0.56]" at 9,4 center front textcolor rgb "#111111" font ",10"
set label 91 "✗" at 9.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set object 19 rect from 9.5,3.5 to 10.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 92 "not learned" at 10,4 center front textcolor rgb "#111111" font ",10"
set object 20 rect from 10.5,3.5 to 11.5,4.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 93 "not learned" at 11,4 center front textcolor rgb "#111111" font ",10"
set label 94 "0.995\n[0.99, 1.00]" at 12,4 center front textcolor rgb "#ffffff" font ",10"
set label 95 "0.545\n[0.45, 0.66]" at 13,4 center front textcolor rgb "#111111" font ",10"
set label 96 "✗" at 13.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set label 97 "0.326\n[0.27, 0.39]" at 14,4 center front textcolor rgb "#111111" font ",10"
set label 98 "✗" at 14.45,3.88 right front textcolor rgb "#D55E00" font ",12"
set label 99 "1.000\n[1.00, 1.00]" at 0,5 center front textcolor rgb "#ffffff" font ",10"
set label 100 "1.000\n[1.00, 1.00]" at 1,5 center front textcolor rgb "#ffffff" font ",10"
set label 101 "1.000\n[1.00, 1.00]" at 2,5 center front textcolor rgb "#ffffff" font ",10"
set label 102 "1.000\n[1.00, 1.00]" at 3,5 center front textcolor rgb "#ffffff" font ",10"
set label 103 "1.000\n[1.00, 1.00]" at 4,5 center front textcolor rgb "#ffffff" font ",10"
set label 104 "1.000\n[1.00, 1.00]" at 5,5 center front textcolor rgb "#ffffff" font ",10"
set label 105 "0.673\n[0.67, 0.68]" at 6,5 center front textcolor rgb "#111111" font ",10"
set label 106 "✗" at 6.45,4.88 right front textcolor rgb "#D55E00" font ",12"
set object 21 rect from 6.5,4.5 to 7.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 107 "not learned" at 7,5 center front textcolor rgb "#111111" font ",10"
set object 22 rect from 7.5,4.5 to 8.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 108 "not learned" at 8,5 center front textcolor rgb "#111111" font ",10"
set label 109 "0.653\n[0.65, 0.66]" at 9,5 center front textcolor rgb "#ffffff" font ",10"
set label 110 "✗" at 9.45,4.88 right front textcolor rgb "#D55E00" font ",12"
set object 23 rect from 9.5,4.5 to 10.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 111 "not learned" at 10,5 center front textcolor rgb "#111111" font ",10"
set object 24 rect from 10.5,4.5 to 11.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 112 "not learned" at 11,5 center front textcolor rgb "#111111" font ",10"
set label 113 "0.683\n[0.68, 0.69]" at 12,5 center front textcolor rgb "#ffffff" font ",10"
set label 114 "✗" at 12.45,4.88 right front textcolor rgb "#D55E00" font ",12"
set object 25 rect from 12.5,4.5 to 13.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 115 "not learned" at 13,5 center front textcolor rgb "#111111" font ",10"
set object 26 rect from 13.5,4.5 to 14.5,5.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 116 "not learned" at 14,5 center front textcolor rgb "#111111" font ",10"
set label 117 "1.000\n[1.00, 1.00]" at 0,6 center front textcolor rgb "#ffffff" font ",10"
set label 118 "1.000\n[1.00, 1.00]" at 1,6 center front textcolor rgb "#ffffff" font ",10"
set label 119 "1.000\n[1.00, 1.00]" at 2,6 center front textcolor rgb "#ffffff" font ",10"
set label 120 "1.000\n[1.00, 1.00]" at 3,6 center front textcolor rgb "#ffffff" font ",10"
set label 121 "1.000\n[1.00, 1.00]" at 4,6 center front textcolor rgb "#ffffff" font ",10"
set label 122 "0.952\n[0.92, 1.00]" at 5,6 center front textcolor rgb "#ffffff" font ",10"
set label 123 "0.704\n[0.67, 0.76]" at 6,6 center front textcolor rgb "#111111" font ",10"
set label 124 "✗" at 6.45,5.88 right front textcolor rgb "#D55E00" font ",12"
set object 27 rect from 6.5,5.5 to 7.5,6.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 125 "not learned" at 7,6 center front textcolor rgb "#111111" font ",10"
set object 28 rect from 7.5,5.5 to 8.5,6.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 126 "not learned" at 8,6 center front textcolor rgb "#111111" font ",10"
set label 127 "0.682\n[0.68, 0.68]" at 9,6 center front textcolor rgb "#ffffff" font ",10"
set label 128 "✗" at 9.45,5.88 right front textcolor rgb "#D55E00" font ",12"
set object 29 rect from 9.5,5.5 to 10.5,6.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 129 "not learned" at 10,6 center front textcolor rgb "#111111" font ",10"
set object 30 rect from 10.5,5.5 to 11.5,6.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 130 "not learned" at 11,6 center front textcolor rgb "#111111" font ",10"
set label 131 "0.652\n[0.61, 0.69]" at 12,6 center front textcolor rgb "#ffffff" font ",10"
set label 132 "✗" at 12.45,5.88 right front textcolor rgb "#D55E00" font ",12"
set object 31 rect from 12.5,5.5 to 13.5,6.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 133 "not learned" at 13,6 center front textcolor rgb "#111111" font ",10"
set object 32 rect from 13.5,5.5 to 14.5,6.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 134 "not learned" at 14,6 center front textcolor rgb "#111111" font ",10"
set label 135 "0.997\n[1.00, 1.00]" at 0,7 center front textcolor rgb "#ffffff" font ",10"
set label 136 "0.917\n[0.92, 0.92]" at 1,7 center front textcolor rgb "#ffffff" font ",10"
set label 137 "0.834\n[0.83, 0.84]" at 2,7 center front textcolor rgb "#ffffff" font ",10"
set label 138 "✗" at 2.45,6.88 right front textcolor rgb "#D55E00" font ",12"
set label 139 "1.000\n[1.00, 1.00]" at 3,7 center front textcolor rgb "#ffffff" font ",10"
set label 140 "1.000\n[1.00, 1.00]" at 4,7 center front textcolor rgb "#ffffff" font ",10"
set label 141 "1.000\n[1.00, 1.00]" at 5,7 center front textcolor rgb "#ffffff" font ",10"
set label 142 "0.599\n[0.60, 0.60]" at 6,7 center front textcolor rgb "#111111" font ",10"
set label 143 "✗" at 6.45,6.88 right front textcolor rgb "#D55E00" font ",12"
set object 33 rect from 6.5,6.5 to 7.5,7.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 144 "not learned" at 7,7 center front textcolor rgb "#111111" font ",10"
set object 34 rect from 7.5,6.5 to 8.5,7.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 145 "not learned" at 8,7 center front textcolor rgb "#111111" font ",10"
set label 146 "0.415\n[0.39, 0.43]" at 9,7 center front textcolor rgb "#111111" font ",10"
set label 147 "✗" at 9.45,6.88 right front textcolor rgb "#D55E00" font ",12"
set object 35 rect from 9.5,6.5 to 10.5,7.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 148 "not learned" at 10,7 center front textcolor rgb "#111111" font ",10"
set object 36 rect from 10.5,6.5 to 11.5,7.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 149 "not learned" at 11,7 center front textcolor rgb "#111111" font ",10"
set label 150 "0.642\n[0.64, 0.65]" at 12,7 center front textcolor rgb "#ffffff" font ",10"
set label 151 "✗" at 12.45,6.88 right front textcolor rgb "#D55E00" font ",12"
set object 37 rect from 12.5,6.5 to 13.5,7.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 152 "not learned" at 13,7 center front textcolor rgb "#111111" font ",10"
set object 38 rect from 13.5,6.5 to 14.5,7.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 153 "not learned" at 14,7 center front textcolor rgb "#111111" font ",10"
plot "overview.dat" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette notitle
unset multiplot
set output
}
