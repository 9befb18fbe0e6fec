;;; Waltz line labelling: the OPS5 benchmark (Satoshi Nishiyama, University of Texas at Austin, 1991), as the
;;; CLIPS 6.4 distribution has it (examples/waltz/waltz.clp: depth strategy, the junction geometry in
;;; deffunctions, saliences that give the firing counts of other engines), written again beside waltz.yaml,
;;; with one rule added at the end, `done` (the rule file's ends the game there). Its facts are the lines of
;;; the drawing, given by tests/test_waltz.py and benchmarks/bench_rule_engines.py (waltz.yaml's `lines`, as the
;;; benchmark's waltzN.fct files have them) with (stage (value duplicate)).
;;;
;;; A point is x * 100 + y. Junctions are of four types (L, arrow, fork, tee); labels are + (convex), -
;;; (concave) and B (boundary).

(deftemplate stage (slot value))
(deftemplate line (slot p1) (slot p2))
(deftemplate edge (slot p1) (slot p2) (slot joined) (slot label) (slot plotted))
(deftemplate junction (slot p1) (slot p2) (slot p3) (slot base_point) (slot type))

(deffunction get-y (?p) (mod ?p 100))
(deffunction get-x (?p) (integer (/ ?p 100)))

;;; the angle of the line from ?p1 to ?p2 with the x axis (the distribution's atan2, renamed: CLIPS 6.4 has an
;;; atan2 of its own, which a deffunction may not replace; and get-angle)
(deffunction arc-tangent (?y ?x)
   (if (> ?x 0) then (return (atan (/ ?y ?x))))
   (if (< ?x 0) then (return (- (atan (/ ?y ?x)) (pi))))
   (if (> ?y 0) then (return (pi)))
   (if (< ?y 0) then (return (- 0 (pi))))
   (return undefined))

(deffunction get-angle (?p1 ?p2)
   (bind ?dx (- (get-x ?p2) (get-x ?p1)))
   (bind ?dy (- (get-y ?p2) (get-y ?p1)))
   (if (= ?dx 0)
      then (if (> ?dy 0) then (return (/ (pi) 2)) else (if (< ?dy 0) then (return (/ (pi) -2))))
      else (if (= ?dy 0)
               then (if (> ?dx 0) then (return 0.0) else (if (< ?dx 0) then (return (pi))))
               else (return (arc-tangent ?dy ?dx)))))

;;; the smaller angle between the lines from ?base to ?p1 and to ?p2
(deffunction inscribed-angle (?base ?p1 ?p2)
   (bind ?angle (- (get-angle ?base ?p1) (get-angle ?base ?p2)))
   (if (< ?angle 0) then (bind ?angle (- 0 ?angle)))
   (if (> ?angle (pi)) then (bind ?angle (- (* 2 (pi)) ?angle)))
   (if (< ?angle 0) then (return (- 0 ?angle)))
   (return ?angle))

;;; three lines meet at ?base: the junction's shaft is the line whose two angles with the others sum least;
;;; that sum is a half turn for a tee, more for a fork, less for an arrow
(deffunction make-3-junction (?base ?p1 ?p2 ?p3)
   (bind ?a12 (inscribed-angle ?base ?p1 ?p2))
   (bind ?a13 (inscribed-angle ?base ?p1 ?p3))
   (bind ?a23 (inscribed-angle ?base ?p2 ?p3))
   (bind ?s1213 (+ ?a12 ?a13))
   (bind ?s1223 (+ ?a12 ?a23))
   (bind ?s1323 (+ ?a13 ?a23))
   (if (< ?s1213 ?s1223)
      then (if (< ?s1213 ?s1323)
               then (bind ?sum ?s1213) (bind ?shaft ?p1) (bind ?barb1 ?p2) (bind ?barb2 ?p3)
               else (bind ?sum ?s1323) (bind ?shaft ?p3) (bind ?barb1 ?p1) (bind ?barb2 ?p2))
      else (if (< ?s1223 ?s1323)
               then (bind ?sum ?s1223) (bind ?shaft ?p2) (bind ?barb1 ?p1) (bind ?barb2 ?p3)
               else (bind ?sum ?s1323) (bind ?shaft ?p3) (bind ?barb1 ?p1) (bind ?barb2 ?p2)))
   (bind ?off (- ?sum (pi)))
   (if (< ?off 0) then (bind ?off (- 0 ?off)))
   (if (< ?off 0.001)
      then (bind ?type tee)
      else (if (> ?sum (pi)) then (bind ?type fork) else (bind ?type arrow)))
   (assert (junction (p1 (integer ?barb1)) (p2 (integer ?shaft)) (p3 (integer ?barb2))
                     (base_point (integer ?base)) (type ?type))))

;;; each line becomes two edges, one each way
(defrule reverse_edges
   (stage (value duplicate))
   ?f2 <- (line (p1 ?p1) (p2 ?p2))
   =>
   (assert (edge (p1 ?p1) (p2 ?p2) (joined false)))
   (assert (edge (p1 ?p2) (p2 ?p1) (joined false)))
   (retract ?f2))

(defrule done_reversing
   (declare (salience -10))
   ?f1 <- (stage (value duplicate))
   (not (line))
   =>
   (modify ?f1 (value detect_junctions)))

;;; three edges from one point, none joined yet: a junction of three
(defrule make-3_junction
   (declare (salience 10))
   (stage (value detect_junctions))
   ?f2 <- (edge (p1 ?base_point) (p2 ?p1) (joined false))
   ?f3 <- (edge (p1 ?base_point) (p2 ?p2&~?p1) (joined false))
   ?f4 <- (edge (p1 ?base_point) (p2 ?p3&~?p1&~?p2) (joined false))
   =>
   (make-3-junction ?base_point ?p1 ?p2 ?p3)
   (modify ?f2 (joined true))
   (modify ?f3 (joined true))
   (modify ?f4 (joined true)))

;;; two edges from one point and no other: an L
(defrule make_L
   (stage (value detect_junctions))
   ?f2 <- (edge (p1 ?base_point) (p2 ?p2) (joined false))
   ?f3 <- (edge (p1 ?base_point) (p2 ?p3&~?p2) (joined false))
   (not (edge (p1 ?base_point) (p2 ~?p2&~?p3)))
   =>
   (assert (junction (type L) (base_point ?base_point) (p1 ?p2) (p2 ?p3)))
   (modify ?f2 (joined true))
   (modify ?f3 (joined true)))

(defrule done_detecting
   (declare (salience -10))
   ?f1 <- (stage (value detect_junctions))
   (not (edge (joined false)))
   =>
   (modify ?f1 (value find_initial_boundary)))

;;; the junction of the highest point is on the boundary: label it
(defrule initial_boundary_junction_L
   ?f1 <- (stage (value find_initial_boundary))
   (junction (type L) (base_point ?base_point) (p1 ?p1) (p2 ?p2))
   ?f3 <- (edge (p1 ?base_point) (p2 ?p1))
   ?f4 <- (edge (p1 ?base_point) (p2 ?p2))
   (not (junction (base_point ?bp&:(> ?bp ?base_point))))
   =>
   (modify ?f3 (label B))
   (modify ?f4 (label B))
   (modify ?f1 (value find_second_boundary)))

(defrule initial_boundary_junction_arrow
   ?f1 <- (stage (value find_initial_boundary))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   ?f3 <- (edge (p1 ?bp) (p2 ?p1))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2))
   ?f5 <- (edge (p1 ?bp) (p2 ?p3))
   (not (junction (base_point ?base_point&:(> ?base_point ?bp))))
   =>
   (modify ?f3 (label B))
   (modify ?f4 (label +))
   (modify ?f5 (label B))
   (modify ?f1 (value find_second_boundary)))

;;; and so is the junction of the lowest point
(defrule second_boundary_junction_L
   ?f1 <- (stage (value find_second_boundary))
   (junction (type L) (base_point ?base_point) (p1 ?p1) (p2 ?p2))
   ?f3 <- (edge (p1 ?base_point) (p2 ?p1))
   ?f4 <- (edge (p1 ?base_point) (p2 ?p2))
   (not (junction (base_point ?bp&:(< ?bp ?base_point))))
   =>
   (modify ?f3 (label B))
   (modify ?f4 (label B))
   (modify ?f1 (value labeling)))

(defrule second_boundary_junction_arrow
   ?f1 <- (stage (value find_second_boundary))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   ?f3 <- (edge (p1 ?bp) (p2 ?p1))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2))
   ?f5 <- (edge (p1 ?bp) (p2 ?p3))
   (not (junction (base_point ?base_point&:(< ?base_point ?bp))))
   =>
   (modify ?f3 (label B))
   (modify ?f4 (label +))
   (modify ?f5 (label B))
   (modify ?f1 (value labeling)))

;;; an edge labelled: the edge the other way gets the same label
(defrule match_edge
   (stage (value labeling))
   ?f2 <- (edge (p1 ?p1) (p2 ?p2) (label ?label& + | - | B))
   ?f3 <- (edge (p1 ?p2) (p2 ?p1) (label nil))
   =>
   (modify ?f2 (plotted t))
   (modify ?f3 (label ?label) (plotted t)))

;;; the labellings a junction allows, given the labels of its edges so far
(defrule label_L
   (stage (value labeling))
   (junction (type L) (base_point ?p1))
   (edge (p1 ?p1) (p2 ?p2) (label + | -))
   ?f4 <- (edge (p1 ?p1) (p2 ~?p2) (label nil))
   =>
   (modify ?f4 (label B)))

(defrule label_tee_A
   (declare (salience 5))
   (stage (value labeling))
   (junction (type tee) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   ?f3 <- (edge (p1 ?bp) (p2 ?p1) (label nil))
   ?f4 <- (edge (p1 ?bp) (p2 ?p3))
   =>
   (modify ?f3 (label B))
   (modify ?f4 (label B)))

(defrule label_tee_B
   (stage (value labeling))
   (junction (type tee) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   ?f3 <- (edge (p1 ?bp) (p2 ?p1))
   ?f4 <- (edge (p1 ?bp) (p2 ?p3) (label nil))
   =>
   (modify ?f3 (label B))
   (modify ?f4 (label B)))

(defrule label_fork-1
   (stage (value labeling))
   (junction (type fork) (base_point ?bp))
   (edge (p1 ?bp) (p2 ?p1) (label +))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2&~?p1) (label nil))
   ?f5 <- (edge (p1 ?bp) (p2 ~?p2&~?p1))
   =>
   (modify ?f4 (label +))
   (modify ?f5 (label +)))

(defrule label_fork-2
   (stage (value labeling))
   (junction (type fork) (base_point ?bp))
   (edge (p1 ?bp) (p2 ?p1) (label B))
   (edge (p1 ?bp) (p2 ?p2&~?p1) (label -))
   ?f5 <- (edge (p1 ?bp) (p2 ~?p2&~?p1) (label nil))
   =>
   (modify ?f5 (label B)))

(defrule label_fork-3
   (stage (value labeling))
   (junction (type fork) (base_point ?bp))
   (edge (p1 ?bp) (p2 ?p1) (label B))
   (edge (p1 ?bp) (p2 ?p2&~?p1) (label B))
   ?f5 <- (edge (p1 ?bp) (p2 ~?p2&~?p1) (label nil))
   =>
   (modify ?f5 (label -)))

(defrule label_fork-4
   (stage (value labeling))
   (junction (type fork) (base_point ?bp))
   (edge (p1 ?bp) (p2 ?p1) (label -))
   (edge (p1 ?bp) (p2 ?p2&~?p1) (label -))
   ?f5 <- (edge (p1 ?bp) (p2 ~?p2&~?p1) (label nil))
   =>
   (modify ?f5 (label -)))

(defrule label_arrow-1A
   (declare (salience 5))
   (stage (value labeling))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   (edge (p1 ?bp) (p2 ?p1) (label ?label& B | -))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2) (label nil))
   ?f5 <- (edge (p1 ?bp) (p2 ?p3))
   =>
   (modify ?f4 (label +))
   (modify ?f5 (label ?label)))

(defrule label_arrow-1B
   (stage (value labeling))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   (edge (p1 ?bp) (p2 ?p1) (label ?label& B | -))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2))
   ?f5 <- (edge (p1 ?bp) (p2 ?p3) (label nil))
   =>
   (modify ?f4 (label +))
   (modify ?f5 (label ?label)))

(defrule label_arrow-2A
   (declare (salience 5))
   (stage (value labeling))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   (edge (p1 ?bp) (p2 ?p3) (label ?label& B | -))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2) (label nil))
   ?f5 <- (edge (p1 ?bp) (p2 ?p1))
   =>
   (modify ?f4 (label +))
   (modify ?f5 (label ?label)))

(defrule label_arrow-2B
   (stage (value labeling))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   (edge (p1 ?bp) (p2 ?p3) (label ?label& B | -))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2))
   ?f5 <- (edge (p1 ?bp) (p2 ?p1) (label nil))
   =>
   (modify ?f4 (label +))
   (modify ?f5 (label ?label)))

(defrule label_arrow-3A
   (declare (salience 5))
   (stage (value labeling))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   (edge (p1 ?bp) (p2 ?p1) (label +))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2) (label nil))
   ?f5 <- (edge (p1 ?bp) (p2 ?p3))
   =>
   (modify ?f4 (label -))
   (modify ?f5 (label +)))

(defrule label_arrow-3B
   (stage (value labeling))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   (edge (p1 ?bp) (p2 ?p1) (label +))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2))
   ?f5 <- (edge (p1 ?bp) (p2 ?p3) (label nil))
   =>
   (modify ?f4 (label -))
   (modify ?f5 (label +)))

(defrule label_arrow-4A
   (declare (salience 5))
   (stage (value labeling))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   (edge (p1 ?bp) (p2 ?p3) (label +))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2) (label nil))
   ?f5 <- (edge (p1 ?bp) (p2 ?p1))
   =>
   (modify ?f4 (label -))
   (modify ?f5 (label +)))

(defrule label_arrow-4B
   (stage (value labeling))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   (edge (p1 ?bp) (p2 ?p3) (label +))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2))
   ?f5 <- (edge (p1 ?bp) (p2 ?p1) (label nil))
   =>
   (modify ?f4 (label -))
   (modify ?f5 (label +)))

(defrule label_arrow-5A
   (declare (salience 5))
   (stage (value labeling))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   (edge (p1 ?bp) (p2 ?p2) (label -))
   ?f4 <- (edge (p1 ?bp) (p2 ?p1))
   ?f5 <- (edge (p1 ?bp) (p2 ?p3) (label nil))
   =>
   (modify ?f4 (label +))
   (modify ?f5 (label +)))

(defrule label_arrow-5B
   (stage (value labeling))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   (edge (p1 ?bp) (p2 ?p2) (label -))
   ?f4 <- (edge (p1 ?bp) (p2 ?p1) (label nil))
   ?f5 <- (edge (p1 ?bp) (p2 ?p3))
   =>
   (modify ?f4 (label +))
   (modify ?f5 (label +)))

;;; salience -10: every labelling above fires first
(defrule done_labeling
   (declare (salience -10))
   ?f1 <- (stage (value labeling))
   =>
   (modify ?f1 (value plot_remaining_edges)))

(defrule plot_remaining
   (stage (value plot_remaining_edges))
   ?f2 <- (edge (plotted nil) (label ?label&~nil) (p1 ?p1) (p2 ?p2))
   =>
   (modify ?f2 (plotted t)))

;;; an edge no labelling reached: taken for a boundary
(defrule plot_boundaries
   (stage (value plot_remaining_edges))
   ?f2 <- (edge (plotted nil) (label nil) (p1 ?p1) (p2 ?p2))
   =>
   (modify ?f2 (plotted t)))

(defrule done_plotting
   (declare (salience -10))
   ?f1 <- (stage (value plot_remaining_edges))
   (not (edge (plotted nil)))
   =>
   (modify ?f1 (value done)))

(defrule done
   (stage (value done))
   =>)
