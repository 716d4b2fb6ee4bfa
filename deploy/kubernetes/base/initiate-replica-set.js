// Run by the Job in mongo-init.yaml with mongosh, against mongo-0 once all three members answer.
// Idempotent: a set that is already initiated is left as it is. Exits once the set has a primary.
const members = ['mongo-0.mongo:27017', 'mongo-1.mongo:27017', 'mongo-2.mongo:27017'];

try {
  const status = rs.status();
  print(`replica set ${status.set} is already initiated`);
} catch (error) {
  if (error.codeName !== 'NotYetInitialized') throw error;
  rs.initiate({ _id: 'rs0', members: members.map((host, id) => ({ _id: id, host })) });
  print(`replica set rs0 initiated with ${members.join(', ')}`);
}

const deadline = Date.now() + 120_000;
while (!rs.status().members.some((member) => member.stateStr === 'PRIMARY')) {
  if (Date.now() > deadline) throw new Error('replica set rs0 has no primary after 120 s');
  sleep(1000);
}
print('replica set rs0 has a primary');
