use argus_core::*;

#[test]
fn smoke() {
    let mut w = World::default();
    let a = w.create_agent(&AgentDef::default()).unwrap();
    let t = w.create_target(&TargetDef { position: Vec3::new(0.0, 0.0, 5.0), ..Default::default() }).unwrap();
    w.add_occluder(&OccluderDef::cuboid(Vec3::new(3.0, 1.0, 3.0), Vec3::new(1.0, 1.0, 0.2))).unwrap();
    w.start_recording(&RecordOptions::default()).unwrap();
    for i in 0..20 {
        w.set_target_pose(t, Vec3::new(i as f32 * 0.3, 0.0, 5.0), Vec3::Z).unwrap();
        w.step(0.05).unwrap();
    }
    let _ = a;
    let bytes = w.stop_recording().unwrap();
    let mut r = Replay::new(&bytes).unwrap();
    r.run_to_end().unwrap();
    assert_eq!(r.steps_done(), 20);
    assert_eq!(r.world().save().unwrap(), w.save().unwrap());
}
