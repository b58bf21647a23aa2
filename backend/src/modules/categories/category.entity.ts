import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

@Entity('categories')
@Index('categories_owner_idx', ['ownerId'])
export class CategoryEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'owner_id', type: 'integer' }) ownerId!: number;
  @Column({ type: 'varchar', length: 100 }) name!: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
